// Reading a file whose name came from a repository or a command line: the
// one way tfsift reads configuration, settings, lock, state and CLI
// configuration files.
//
// A repository is hostile input. A committed `x.tf -> /proc/self/environ`
// must not put the environment into a report, a FIFO or `/dev/stdin` must
// not block the run, and `/dev/zero` must not be read until memory runs out.
// So only regular files are read, never opened in a way that can block;
// a file that resolves (through symlinks or `..`) outside the trusted root
// is refused unless the caller allows it; every read is bounded; and every
// failure is a value carrying a message that names the path.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/directory_listing.hpp"
#include "tfsift/source.hpp"

namespace tfsift {

class ReadBudget;  // tfsift/read_budget.hpp

// The default bound on the size of one file (the `max_file_size` setting).
inline constexpr std::uint64_t default_max_file_size = std::uint64_t{64} << 20;

// Texts that stand in for the contents of files on disk, by absolute path
// with symlinks resolved: an editor's unsaved buffers (`tfsift server`).
// An overlaid file is read as if it held the text, once it passes every
// check its disk entry must pass (it exists, is a regular file, resolves
// inside the root); the size limit applies to the text. A text for a file
// not on disk yet (a new buffer) is read when its directory exists and
// resolves inside the root.
using FileOverlays = std::map<std::string, std::string, std::less<>>;

struct ReadPolicy {
    // Absolute directory the file must resolve into; empty: anywhere (a path
    // the user named on the command line or in the environment).
    std::string root;
    // Read files that resolve outside `root` anyway (the
    // `follow_external_symlinks` setting).
    bool follow_external = false;
    std::uint64_t max_size = default_max_file_size;
    // Null or empty: every file is read from disk.
    std::shared_ptr<const FileOverlays> overlays;
    // The run's budget that every file read from disk is charged to; null:
    // none. An overlaid text is not charged.
    std::shared_ptr<ReadBudget> budget;
};

// Whether `policy` overlays a file directly inside the directory `dir`
// (absolute, symlinks resolved): such a directory is not what its files on
// disk say, so it must not be shared with a load that reads the disk.
bool overlays_directory(const ReadPolicy& policy, const std::string& dir);

// The names of the files directly inside `dir` (absolute, symlinks
// resolved) that `policy` overlays, whether or not they are on disk: a
// directory listing adds those it lacks.
std::vector<std::string> overlaid_names(const ReadPolicy& policy, const std::string& dir);

// Why work stops once `budget`'s memory was passed: "the run's memory
// budget of 1024 MiB was reached (...)".
std::string memory_budget_reached(const ReadBudget& budget);

enum class ReadFailure : std::uint8_t {
    none,
    missing,           // no such file
    dangling_symlink,  // a symlink whose target does not exist
    directory,
    not_regular,  // FIFO, device, socket
    outside_root,
    too_large,
    over_budget,  // the run's budget of bytes or of memory was reached (ReadPolicy::budget)
    io_error,     // EACCES, EIO, short read, ...
};

struct FileContent {
    std::string bytes;
    ReadFailure failure = ReadFailure::none;
    // Why it was not read, naming the path (and a link's target); empty
    // when it was read.
    std::string message;

    [[nodiscard]] bool ok() const { return failure == ReadFailure::none; }
};

// Reads `path` under `policy`. Never blocks on a special file, never reads
// more than `policy.max_size` bytes (plus one, to notice a larger file).
FileContent read_regular_file(const std::string& path, const ReadPolicy& policy);

// The same, as a SourceFile named `display_name` (the path when empty);
// null with `failure` filled in when the file cannot be read.
std::shared_ptr<const SourceFile> read_source_file(const std::string& path, const ReadPolicy& policy,
                                                   FileContent& failure, const std::string& display_name = {});

// Reads files directly inside one open directory under one policy, each
// opened by name relative to the directory: the kernel does not walk the
// directory's path again for every file, and the root check is made once,
// on the directory's real path. That check covers every regular file
// opened in the directory without following a link. Anything else (a
// symbolic link, a special file, an overlaid text, a directory outside the
// root, a file too large or changing under the read) is read by its path
// through read_source_file, so it is checked and reported exactly as that
// function does.
class DirectoryFileReader {
public:
    // `dir` must outlive the reader and stay open while it reads; the
    // policy is copied. `real`, when given, is the directory's real path,
    // already asked of it.
    DirectoryFileReader(const OpenDirectory& dir, const ReadPolicy& policy,
                        const std::optional<std::string>& real = std::nullopt);

    // The file `name` inside the directory, known by `path` for a read by
    // path and its messages, named `display_name` (`path` when empty).
    // Null with `failure` filled in when it cannot be read. On success,
    // `stamp` (when not null) receives the stamp of the file that was read,
    // or nullopt when none could be taken.
    std::shared_ptr<const SourceFile> read(const std::string& name, const std::string& path, FileContent& failure,
                                           const std::string& display_name = {},
                                           std::optional<FileStamp>* stamp = nullptr);

private:
    const OpenDirectory& dir_;
    ReadPolicy policy_;
    // Whether files may be opened relative to the directory at all: it is
    // open, inside the root (or the policy has none) and nothing is overlaid.
    bool direct_ = false;
    // The directory's real path, when it was known or asked for
    // (SourceFile::real_directory).
    std::string real_;
};

// The nearest directory from `start` upward that holds `.git`, or `start`
// itself when there is none; absolute, with symlinks resolved when it exists.
std::string trusted_root_of(const std::string& start);

// The path an open file descriptor refers to, every symbolic link resolved,
// as the kernel keeps it (one readlink of /proc/self/fd); nullopt when /proc
// cannot tell (not mounted, or the file was deleted).
std::optional<std::string> path_of_descriptor(int fd);

// `path` with every symbolic link resolved (what realpath gives), or nullopt
// when some part of it does not exist or cannot be searched.
std::optional<std::string> resolved_real_path(const std::string& path);

// Whether `path` exists and resolves (symlinks followed) to a place inside
// the directory `root` (itself resolved).
bool resolves_inside(const std::string& path, const std::string& root);

// Whether `path` is the directory `dir` or lies below it, by their names
// alone (both absolute and lexically normal; no link is resolved).
bool lies_within(const std::string& path, const std::string& dir);

// Whether `real`, a path without symbolic links in it (resolved_real_path's
// answer), lies inside the directory `root` (itself resolved).
bool real_path_inside(const std::string& real, const std::string& root);

// `path` (absolute, lexically normal) as a path at or below `root` (a real
// path) when it is one: as named when it already lies there, else its real
// path, for a path named through a symbolic link (`../shared/x` with
// `shared` a link). Unchanged when neither lies below `root`.
std::string in_terms_of_root(const std::string& path, const std::string& root);

}  // namespace tfsift
