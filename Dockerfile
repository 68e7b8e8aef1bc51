# tfsift in a container: built on Debian 12 with the same script CI builds
# with (scripts/build.sh), run on Debian 12 as an unprivileged user.
#   docker build -t tfsift .
#   docker run --rm -v "$PWD:$PWD" -w "$PWD" --user "$(id -u):$(id -g)" tfsift lint --recursive .
# (docs/install.md, "The container")

# ---- build --------------------------------------------------------------------
FROM debian:12 AS build
WORKDIR /src/tfsift
COPY . .
# The build context has no .git (.dockerignore): the commit `tfsift --version`
# names comes from here (docker build --build-arg TFSIFT_COMMIT=...).
ARG TFSIFT_COMMIT=
ENV TFSIFT_BUILD_TARGET=tfsift
RUN scripts/build.sh --install-packages /src/build -DCMAKE_BUILD_TYPE=Release "-DTFSIFT_COMMIT=${TFSIFT_COMMIT}" \
    && strip /src/build/tfsift \
    && /src/build/tfsift --version \
    && scripts/runtime-packages.sh /src/build/tfsift > /src/build/runtime-packages.txt

# ---- run ----------------------------------------------------------------------
FROM debian:12
# The packages of the shared libraries the binary links, as the build stage's
# dpkg database names them (scripts/runtime-packages.sh).
COPY --from=build /src/build/tfsift /usr/bin/tfsift
COPY --from=build /src/build/runtime-packages.txt /tmp/runtime-packages.txt
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates $(cat /tmp/runtime-packages.txt) \
    && rm /tmp/runtime-packages.txt \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 --shell /usr/sbin/nologin tfsift
USER tfsift
WORKDIR /home/tfsift
ENTRYPOINT ["/usr/bin/tfsift"]
CMD ["--help"]
