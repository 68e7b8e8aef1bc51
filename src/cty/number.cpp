// Number on top of MPFR. Every operation reproduces the precision and
// rounding big.Float would use, because the printed shortest decimal form
// depends on the precision as well as on the value.
#include "tfsift/cty/number.hpp"

#include <gmp.h>
#include <mpfr.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace tfsift::cty {

struct Number::Impl {
    mpfr_t v;
    explicit Impl(mpfr_prec_t prec) { mpfr_init2(v, prec); }
    ~Impl() { mpfr_clear(v); }
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;
};

namespace {

// Go's big.Float exponent is an int32; MPFR's default range is close to it.
// We narrow it so that a hostile literal such as 1e300000000 becomes an
// infinity (and thus non-serialisable) instead of a number whose decimal
// expansion would take gigabytes.
constexpr mpfr_exp_t exponent_limit = mpfr_exp_t{1} << 24;

struct ExponentRange {
    ExponentRange() {
        mpfr_set_emax(exponent_limit);
        mpfr_set_emin(-exponent_limit);
    }
};
const ExponentRange exponent_range_once;

using ImplPtr = std::shared_ptr<Number::Impl>;

ImplPtr make(mpfr_prec_t prec) { return std::make_shared<Number::Impl>(prec); }

class Mpz {
public:
    Mpz() { mpz_init(z); }
    ~Mpz() { mpz_clear(z); }
    Mpz(const Mpz&) = delete;
    Mpz& operator=(const Mpz&) = delete;
    mpz_t z;
};

// An exact decimal: value = 0.digits × 10^point, digits without trailing
// zeros (Go's math/big decimal type).
struct Decimal {
    std::string digits;
    long point = 0;

    [[nodiscard]] char at(long i) const {
        return i >= 0 && i < static_cast<long>(digits.size()) ? digits[static_cast<std::size_t>(i)] : '0';
    }
    void trim() {
        while (!digits.empty() && digits.back() == '0') digits.pop_back();
        if (digits.empty()) point = 0;
    }
    void round_up(long n) {
        if (n < 0 || n >= static_cast<long>(digits.size())) return;
        while (n > 0 && digits[static_cast<std::size_t>(n - 1)] >= '9') --n;
        if (n == 0) {
            digits = "1";
            ++point;
            return;
        }
        ++digits[static_cast<std::size_t>(n - 1)];
        digits.resize(static_cast<std::size_t>(n));
    }
    void round_down(long n) {
        if (n < 0 || n >= static_cast<long>(digits.size())) return;
        digits.resize(static_cast<std::size_t>(n));
        trim();
    }
    void round(long n) {
        if (n < 0 || n >= static_cast<long>(digits.size())) return;
        const auto un = static_cast<std::size_t>(n);
        bool up = false;
        if (digits[un] == '5' && un + 1 == digits.size()) {
            up = n > 0 && ((digits[un - 1] - '0') & 1) != 0;  // exactly half: to even
        } else {
            up = digits[un] >= '5';
        }
        if (up)
            round_up(n);
        else
            round_down(n);
    }
};

// The exact decimal expansion of m × 2^exp (m > 0).
Decimal exact_decimal(const mpz_t m, long exp) {
    Mpz n;
    long shift = 0;
    if (exp >= 0) {
        mpz_mul_2exp(n.z, m, static_cast<mp_bitcnt_t>(exp));
    } else {
        // m × 2^-k = m × 5^k / 10^k
        Mpz p;
        mpz_ui_pow_ui(p.z, 5, static_cast<unsigned long>(-exp));
        mpz_mul(n.z, m, p.z);
        shift = -exp;
    }
    Decimal d;
    std::string s(mpz_sizeinbase(n.z, 10) + 2, '\0');
    mpz_get_str(s.data(), 10, n.z);
    s.resize(std::strlen(s.c_str()));
    d.point = static_cast<long>(s.size()) - shift;
    d.digits = std::move(s);
    d.trim();
    return d;
}

// Go's roundShortest: the shortest digit string that still rounds back to x
// at x's precision.
void round_shortest(Decimal& d, const mpz_t mant2, long exp2) {
    if (d.digits.empty()) return;
    Mpz tmp;
    mpz_sub_ui(tmp.z, mant2, 1);
    const Decimal lower = exact_decimal(tmp.z, exp2);
    mpz_add_ui(tmp.z, mant2, 1);
    const Decimal upper = exact_decimal(tmp.z, exp2);
    // The bounds are outputs only when the mantissa is even, because ties
    // round to even.
    const bool inclusive = mpz_tstbit(mant2, 1) == 0;
    for (std::size_t i = 0; i < d.digits.size(); ++i) {
        const char m = d.digits[i];
        const char l = lower.at(static_cast<long>(i));
        const char u = upper.at(static_cast<long>(i));
        const bool okdown = l != m || (inclusive && i + 1 == lower.digits.size());
        const bool okup = m != u && (inclusive || m + 1 < u || i + 1 < upper.digits.size());
        const long n = static_cast<long>(i) + 1;
        if (okdown && okup) {
            d.round(n);
            return;
        }
        if (okdown) {
            d.round_down(n);
            return;
        }
        if (okup) {
            d.round_up(n);
            return;
        }
    }
}

bool valid_digits(std::string_view s, std::size_t& i) {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
}

}  // namespace

Number::Number() {
    auto r = make(parse_precision);
    mpfr_set_zero(r->v, 1);
    impl_ = std::move(r);
}

std::optional<Number> Number::parse(std::string_view text) {
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
        negative = text[i] == '-';
        ++i;
    }
    const std::string_view rest = text.substr(i);
    if (rest == "Inf" || rest == "inf") {
        auto r = make(parse_precision);
        mpfr_set_inf(r->v, negative ? -1 : 1);
        return Number(r);
    }
    // mantissa = digits "." [digits] | digits | "." digits
    std::string mantissa;
    bool has_digits = valid_digits(text, i);
    if (i < text.size() && text[i] == '.') {
        ++i;
        has_digits = valid_digits(text, i) || has_digits;
    }
    if (!has_digits) return std::nullopt;
    const std::size_t mantissa_end = i;
    char exponent_kind = 0;
    std::string_view exponent;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E' || text[i] == 'p' || text[i] == 'P')) {
        exponent_kind = static_cast<char>(text[i] | 0x20);
        ++i;
        const std::size_t exp_start = i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
        if (!valid_digits(text, i)) return std::nullopt;
        exponent = text.substr(exp_start, i - exp_start);
    }
    if (i != text.size()) return std::nullopt;

    auto r = make(parse_precision);
    std::string decimal(text.substr(0, mantissa_end));
    if (exponent_kind == 'e') {
        decimal += 'e';
        decimal += exponent;
    }
    mpfr_strtofr(r->v, decimal.c_str(), nullptr, 10, MPFR_RNDN);
    if (exponent_kind == 'p') {
        // A binary exponent scales by a power of two, which is exact.
        const std::string e(exponent);
        const long long p = std::strtoll(e.c_str(), nullptr, 10);
        const long clamped = static_cast<long>(std::clamp<long long>(p, -(exponent_limit * 2), exponent_limit * 2));
        mpfr_mul_2si(r->v, r->v, clamped, MPFR_RNDN);
    }
    return Number(r);
}

Number Number::from_int(std::int64_t v) {
    auto r = make(64);
    mpfr_set_sj(r->v, v, MPFR_RNDN);
    return Number(r);
}

std::optional<Number> Number::add(const Number& other) const {
    const mpfr_srcptr a = impl_->v;
    const mpfr_srcptr b = other.impl_->v;
    if (mpfr_inf_p(a) && mpfr_inf_p(b) && mpfr_signbit(a) != mpfr_signbit(b)) return std::nullopt;
    auto r = make(std::max(mpfr_get_prec(a), mpfr_get_prec(b)));
    mpfr_add(r->v, a, b, MPFR_RNDN);
    return Number(r);
}

std::optional<Number> Number::subtract(const Number& other) const { return add(other.negate()); }

std::optional<Number> Number::multiply(const Number& other) const {
    const mpfr_srcptr a = impl_->v;
    const mpfr_srcptr b = other.impl_->v;
    if ((mpfr_inf_p(a) && mpfr_zero_p(b)) || (mpfr_zero_p(a) && mpfr_inf_p(b))) return std::nullopt;
    // go-cty multiplies at 512 bits, then narrows to the larger operand
    // precision or the bits the product needs, whichever is more.
    auto r = make(512);
    mpfr_mul(r->v, a, b, MPFR_RNDN);
    mpfr_prec_t prec = std::max(mpfr_get_prec(a), mpfr_get_prec(b));
    if (mpfr_regular_p(r->v)) prec = std::max(prec, mpfr_min_prec(r->v));
    mpfr_prec_round(r->v, prec, MPFR_RNDN);
    return Number(r);
}

std::optional<Number> Number::divide(const Number& other) const {
    const mpfr_srcptr a = impl_->v;
    const mpfr_srcptr b = other.impl_->v;
    if ((mpfr_zero_p(a) && mpfr_zero_p(b)) || (mpfr_inf_p(a) && mpfr_inf_p(b))) return std::nullopt;
    auto r = make(std::max(mpfr_get_prec(a), mpfr_get_prec(b)));
    mpfr_div(r->v, a, b, MPFR_RNDN);
    return Number(r);
}

std::optional<Number> Number::modulo(const Number& other) const {
    const mpfr_srcptr a = impl_->v;
    const mpfr_srcptr b = other.impl_->v;
    if (mpfr_zero_p(b)) return *this;
    // go-cty multiplies the divisor by the integer part of a / b: with an
    // infinite divisor that is 0 × inf (ErrNaN upstream), and an infinite
    // quotient has no integer part (upstream crashes). Both fail here.
    const auto quotient = divide(other);
    if (!quotient || quotient->is_infinite() || mpfr_inf_p(b)) return std::nullopt;
    Mpz truncated;
    mpfr_get_z(truncated.z, quotient->impl_->v, MPFR_RNDZ);
    auto r = make(mpfr_get_prec(a));
    mpfr_set_z(r->v, truncated.z, MPFR_RNDN);
    mpfr_mul(r->v, b, r->v, MPFR_RNDN);
    mpfr_sub(r->v, a, r->v, MPFR_RNDN);
    return Number(r);
}

Number Number::negate() const {
    auto r = make(mpfr_get_prec(impl_->v));
    mpfr_neg(r->v, impl_->v, MPFR_RNDN);
    return Number(r);
}

int Number::compare(const Number& other) const {
    const int c = mpfr_cmp(impl_->v, other.impl_->v);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

bool Number::equals(const Number& other) const {
    const int sa = mpfr_sgn(impl_->v);
    const int sb = mpfr_sgn(other.impl_->v);
    if ((sa > 0) != (sb > 0) || (sa < 0) != (sb < 0)) return false;
    std::string ta = text();
    std::string tb = other.text();
    if (ta == "-0") ta = "0";
    if (tb == "-0") tb = "0";
    return ta == tb;
}

bool Number::is_zero() const { return mpfr_zero_p(impl_->v) != 0; }
bool Number::is_infinite() const { return mpfr_inf_p(impl_->v) != 0; }
bool Number::is_negative() const { return mpfr_signbit(impl_->v) != 0; }
bool Number::is_integer() const { return mpfr_integer_p(impl_->v) != 0; }
long Number::precision() const { return static_cast<long>(mpfr_get_prec(impl_->v)); }

std::optional<std::int64_t> Number::to_int64() const {
    if (!is_integer()) return std::nullopt;
    if (!mpfr_fits_intmax_p(impl_->v, MPFR_RNDN)) return std::nullopt;
    return static_cast<std::int64_t>(mpfr_get_sj(impl_->v, MPFR_RNDN));
}

double Number::to_double() const { return mpfr_get_d(impl_->v, MPFR_RNDN); }

std::string Number::text() const {
    const mpfr_srcptr x = impl_->v;
    std::string out;
    if (mpfr_signbit(x)) out += '-';
    if (mpfr_inf_p(x)) return mpfr_signbit(x) ? "-Inf" : "+Inf";
    if (mpfr_zero_p(x)) return out + "0";
    // An integer whose last bit is worth at most 1 (|x| < 2^prec): no other
    // number as short lies within half a unit of it, so its digits are the
    // shortest form. Most numbers in configurations are such integers.
    if (mpfr_integer_p(x) != 0 && mpfr_get_exp(x) <= mpfr_get_prec(x) && mpfr_fits_slong_p(x, MPFR_RNDN) != 0) {
        return std::to_string(mpfr_get_si(x, MPFR_RNDN));
    }

    // x = mant × 2^exp with mant exactly `prec` bits wide.
    const mpfr_prec_t prec = mpfr_get_prec(x);
    Mpz mant;
    long exp = static_cast<long>(mpfr_get_z_2exp(mant.z, x));
    mpz_abs(mant.z, mant.z);
    const long width = static_cast<long>(mpz_sizeinbase(mant.z, 2));
    if (width < prec) {
        mpz_mul_2exp(mant.z, mant.z, static_cast<mp_bitcnt_t>(prec - width));
        exp -= prec - width;
    } else if (width > prec) {
        mpz_fdiv_q_2exp(mant.z, mant.z, static_cast<mp_bitcnt_t>(width - prec));
        exp += width - prec;
    }
    Decimal d = exact_decimal(mant.z, exp);
    // One more bit so that the lowest bit is half an ulp.
    Mpz mant2;
    mpz_mul_2exp(mant2.z, mant.z, 1);
    round_shortest(d, mant2.z, exp - 1);

    // %f with as many fraction digits as the shortest form needs.
    const long fraction = std::max<long>(static_cast<long>(d.digits.size()) - d.point, 0);
    if (d.point > 0) {
        const long m = std::min<long>(static_cast<long>(d.digits.size()), d.point);
        out.append(d.digits, 0, static_cast<std::size_t>(m));
        out.append(static_cast<std::size_t>(d.point - m), '0');
    } else {
        out += '0';
    }
    if (fraction > 0) {
        out += '.';
        for (long i = 0; i < fraction; ++i) out += d.at(d.point + i);
    }
    return out;
}

}  // namespace tfsift::cty
