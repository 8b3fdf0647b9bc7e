//! `cloud_numerics` / `app_numerics`: turning a parameter string into a number.
//!
//! Two modes ([`NumericMode`]):
//!
//! | input | `Strict` (default) | `OriginalPrefix` (the C++ `stoll`/`stof` behaviour) |
//! |---|---|---|
//! | `"20"` | `20` | `20` |
//! | `" 20"`, `"20 "` | error (`Invalid`) | `20` (leading whitespace skipped, trailing text ignored) |
//! | `"20abc"` | error (`Invalid`) | `20` |
//! | `"1.5e"` | error (`Invalid`) | `1.5` (float prefix) |
//! | `"10.0"` | `10` (an integral float becomes an integer) | `10` (same) |
//! | `"2.5"` | `2.5` | `2.5` (as the `f32` `stof` returns, widened) |
//! | `"1e3"` | `1000` (exponent accepted, integral) | `1` (no `.` → `stoll` reads the prefix `1`) |
//! | `"-5"` | `-5` (then rejected by an unsigned field) | `-5` (same) |
//! | `"abc"`, `""` | error (`Invalid` / `Empty`) | no conversion: the value stays a string |
//! | `"99999999999999999999"` | error (`OutOfRange`) | no conversion (`stoll` throws) |
//! | `"1e999"` | error (`OutOfRange`) | no conversion (`stof` throws) |
//! | `"inf."`, `"nan."`, `"0x1.8p1"` | error (`Invalid`) | `inf`, `NaN`, `3` (`strtof` grammar) |
//! | a JSON number | kept | kept |
//! | a bool, `null`, array or object | error (`NotAString`) | kept unchanged |
//!
//! In both modes a non-integral float is *not* truncated into an integer field: the payload's
//! serde mapping rejects it (the original CLAD setter truncated `10.5` into `10`).

use std::fmt;

/// How `cloud_numerics`/`app_numerics` parameter strings become numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NumericMode {
    /// The whole string must be a number: optional sign, digits, optional fraction and
    /// exponent, nothing else (no whitespace, no `inf`/`nan`). Failures are
    /// [`TranslateError::BadNumber`](super::TranslateError::BadNumber).
    #[default]
    Strict,
    /// Compatibility with the original robot: C `stof` when the string contains a `.`,
    /// else `stoll` — leading whitespace skipped, the longest numeric *prefix* used
    /// (`"20abc"` → 20). When nothing converts (no digits, out of range) the value stays a
    /// string, as in the original, and the payload's serde mapping then decides.
    OriginalPrefix,
}

/// Why a numeric parameter could not be converted (strict mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NumberError {
    /// The JSON value is not a string (bool, null, array or object).
    NotAString,
    /// The string is empty.
    Empty,
    /// The string is not a number (or has anything around it).
    Invalid,
    /// The number does not fit a 64-bit integer or a finite `f64`.
    OutOfRange,
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NotAString => "not a string",
            Self::Empty => "empty string",
            Self::Invalid => "not a number",
            Self::OutOfRange => "out of range",
        })
    }
}

/// A converted number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Number {
    I64(i64),
    U64(u64),
    F64(f64),
}

/// Integral floats become integers, so `"10.0"` fills an integer field.
fn from_float(f: f64) -> Number {
    // 2^63 and 2^64 are exact in f64.
    if f.fract() == 0.0 && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f)
    {
        Number::I64(f as i64)
    } else if f.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&f) {
        Number::U64(f as u64)
    } else {
        Number::F64(f)
    }
}

/// Strict mode: the whole string is a number.
pub(crate) fn strict(s: &str) -> Result<Number, NumberError> {
    if s.is_empty() {
        return Err(NumberError::Empty);
    }
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b[0], b'+' | b'-') {
        i = 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    let mut is_float = false;
    if i < b.len() && b[i] == b'.' {
        is_float = true;
        i += 1;
        let f = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = i - f;
    }
    if int_digits + frac_digits == 0 {
        return Err(NumberError::Invalid);
    }
    if i < b.len() && matches!(b[i], b'e' | b'E') {
        is_float = true;
        i += 1;
        if i < b.len() && matches!(b[i], b'+' | b'-') {
            i += 1;
        }
        let e = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == e {
            return Err(NumberError::Invalid);
        }
    }
    if i != b.len() {
        return Err(NumberError::Invalid);
    }
    if !is_float {
        let digits = s.strip_prefix('+').unwrap_or(s);
        return if b[0] == b'-' {
            digits
                .parse::<i64>()
                .map(Number::I64)
                .map_err(|_| NumberError::OutOfRange)
        } else {
            match digits.parse::<i64>() {
                Ok(v) => Ok(Number::I64(v)),
                Err(_) => digits
                    .parse::<u64>()
                    .map(Number::U64)
                    .map_err(|_| NumberError::OutOfRange),
            }
        };
    }
    let f: f64 = s.parse().map_err(|_| NumberError::Invalid)?;
    if !f.is_finite() {
        return Err(NumberError::OutOfRange);
    }
    Ok(from_float(f))
}

/// Original mode: `stof` if the string contains a `.`, else `stoll`. `None` is "no
/// conversion performed" (the original logged an error and kept the string).
pub(crate) fn original_prefix(s: &str) -> Option<Number> {
    if s.contains('.') {
        stof(s).map(|f| from_float(f64::from(f)))
    } else {
        stoll(s).map(Number::I64)
    }
}

/// C `isspace` in the "C" locale.
fn skip_c_space(b: &[u8]) -> usize {
    b.iter()
        .position(|c| !matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
        .unwrap_or(b.len())
}

/// `std::stoll(s)` (base 10): `None` where it throws.
fn stoll(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let mut i = skip_c_space(b);
    let neg = match b.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let start = i;
    let mut v: i128 = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        v = v * 10 + i128::from(b[i] - b'0');
        if v > i128::from(i64::MAX) + 1 {
            return None; // out_of_range
        }
        i += 1;
    }
    if i == start {
        return None; // invalid_argument
    }
    let v = if neg { -v } else { v };
    i64::try_from(v).ok()
}

/// `std::stof(s)`: the `strtof` grammar on the longest prefix; `None` where it throws
/// (no conversion, or `ERANGE`: overflow or underflow of a non-zero value).
fn stof(s: &str) -> Option<f32> {
    let b = s.as_bytes();
    let mut i = skip_c_space(b);
    let neg = match b.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let rest = &b[i..];
    let starts = |p: &[u8]| rest.len() >= p.len() && rest[..p.len()].eq_ignore_ascii_case(p);
    let sign = if neg { -1.0f32 } else { 1.0 };
    if starts(b"inf") {
        return Some(sign * f32::INFINITY);
    }
    if starts(b"nan") {
        return Some(f32::NAN);
    }
    if starts(b"0x") {
        if let Some(v) = hex_float(&rest[2..]) {
            return narrow(sign as f64 * v);
        }
        // "0x" without hex digits: strtof reads the "0".
        return Some(sign * 0.0);
    }
    // Decimal: digits [. digits] [e [sign] digits].
    let mut j = 0;
    let mut digits = 0;
    while j < rest.len() && rest[j].is_ascii_digit() {
        j += 1;
        digits += 1;
    }
    if j < rest.len() && rest[j] == b'.' {
        j += 1;
        while j < rest.len() && rest[j].is_ascii_digit() {
            j += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    let mut end = j;
    if j < rest.len() && matches!(rest[j], b'e' | b'E') {
        let mut k = j + 1;
        if k < rest.len() && matches!(rest[k], b'+' | b'-') {
            k += 1;
        }
        let e = k;
        while k < rest.len() && rest[k].is_ascii_digit() {
            k += 1;
        }
        if k > e {
            end = k;
        }
    }
    let text = std::str::from_utf8(&rest[..end]).ok()?;
    let v: f64 = text.parse().ok()?;
    narrow(if neg { -v } else { v })
}

/// Narrow to `f32` with `strtof`'s `ERANGE` cases mapped to `None`.
fn narrow(v: f64) -> Option<f32> {
    let f = v as f32;
    if f.is_infinite() {
        return None; // overflow
    }
    if v != 0.0 && (f == 0.0 || f.is_subnormal()) {
        return None; // underflow
    }
    Some(f)
}

/// The part of a C hex float after `0x`: hex digits, optional `.` and fraction, optional
/// binary exponent `p[sign]digits`. `None` when there is no hex digit.
fn hex_float(b: &[u8]) -> Option<f64> {
    let mut i = 0;
    let mut mant = 0f64;
    let mut digits = 0;
    let mut scale = 0i32;
    while i < b.len() && b[i].is_ascii_hexdigit() {
        mant = mant * 16.0 + f64::from((b[i] as char).to_digit(16)?);
        i += 1;
        digits += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_hexdigit() {
            mant = mant * 16.0 + f64::from((b[i] as char).to_digit(16)?);
            scale -= 4;
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if i < b.len() && matches!(b[i], b'p' | b'P') {
        let mut k = i + 1;
        let neg = match b.get(k) {
            Some(b'-') => {
                k += 1;
                true
            }
            Some(b'+') => {
                k += 1;
                false
            }
            _ => false,
        };
        let e = k;
        let mut exp = 0i32;
        while k < b.len() && b[k].is_ascii_digit() {
            exp = exp
                .saturating_mul(10)
                .saturating_add(i32::from(b[k] - b'0'));
            k += 1;
        }
        if k > e {
            scale = scale.saturating_add(if neg { -exp } else { exp });
        }
    }
    Some(mant * 2f64.powi(scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_accepts_whole_numbers_only() {
        assert_eq!(strict("20"), Ok(Number::I64(20)));
        assert_eq!(strict("+20"), Ok(Number::I64(20)));
        assert_eq!(strict("-5"), Ok(Number::I64(-5)));
        assert_eq!(strict("007"), Ok(Number::I64(7)));
        assert_eq!(strict("10.0"), Ok(Number::I64(10)));
        assert_eq!(strict("1e3"), Ok(Number::I64(1000)));
        assert_eq!(strict("2.5"), Ok(Number::F64(2.5)));
        assert_eq!(strict(".5"), Ok(Number::F64(0.5)));
        assert_eq!(strict("5."), Ok(Number::I64(5)));
        assert_eq!(strict("18446744073709551615"), Ok(Number::U64(u64::MAX)));
        assert_eq!(strict(""), Err(NumberError::Empty));
        for bad in [
            "20abc", " 20", "20 ", "1.5e", "abc", ".", "-", "+", "inf", "NaN", "0x10", "1e",
        ] {
            assert_eq!(strict(bad), Err(NumberError::Invalid), "{bad}");
        }
        assert_eq!(strict("99999999999999999999"), Err(NumberError::OutOfRange));
        assert_eq!(strict("-9999999999999999999"), Err(NumberError::OutOfRange));
        assert_eq!(strict("1e999"), Err(NumberError::OutOfRange));
    }

    #[test]
    fn original_prefix_is_stoll_and_stof() {
        assert_eq!(original_prefix("20abc"), Some(Number::I64(20)));
        assert_eq!(original_prefix("  \t20"), Some(Number::I64(20)));
        assert_eq!(original_prefix("1.5e"), Some(Number::F64(1.5)));
        assert_eq!(original_prefix("1e3"), Some(Number::I64(1)));
        assert_eq!(original_prefix("10.0"), Some(Number::I64(10)));
        assert_eq!(original_prefix("-5"), Some(Number::I64(-5)));
        assert_eq!(original_prefix("1.1"), Some(Number::F64(f64::from(1.1f32))));
        assert_eq!(original_prefix("0x1.8p1"), Some(Number::I64(3)));
        assert_eq!(original_prefix("abc"), None);
        assert_eq!(original_prefix(""), None);
        assert_eq!(original_prefix("."), None);
        assert_eq!(original_prefix("99999999999999999999"), None);
        assert_eq!(original_prefix("1e999."), None);
        assert_eq!(original_prefix("1e-60."), None);
        assert!(matches!(original_prefix("inf."), Some(Number::F64(f)) if f.is_infinite()));
        assert!(matches!(original_prefix("nan."), Some(Number::F64(f)) if f.is_nan()));
        assert_eq!(
            original_prefix("-9223372036854775808"),
            Some(Number::I64(i64::MIN))
        );
        assert_eq!(original_prefix("9223372036854775808"), None);
    }
}
