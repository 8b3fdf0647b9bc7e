//! Evaluator for `verbatim` expressions.
//!
//! The original compiler copies verbatim text into generated C++/Python and lets that compiler
//! evaluate it. We generate Rust from values, so we evaluate the (C-like) expressions
//! ourselves: integer, float, string and boolean literals, references to enum members
//! (`Enum::member`, `NS::Enum::member`, or a bare earlier member of the same enum), parentheses,
//! and the operators `+ - * / % << >> & | ^ ~ !`. A trailing `// comment` (which the original
//! lexer keeps inside the verbatim token) is ignored.

use crate::ir::ConstValue;

/// Evaluates `text`. `lookup` resolves a (possibly `::`-qualified) name to an integer.
pub(crate) fn eval(
    text: &str,
    lookup: &mut dyn FnMut(&str) -> Result<i128, String>,
) -> Result<ConstValue, String> {
    let tokens = tokenize(text)?;
    if tokens.is_empty() {
        return Err("the expression is empty".into());
    }
    let mut p = ExprParser {
        tokens: &tokens,
        pos: 0,
        lookup,
        depth: 0,
    };
    let v = p.bitor()?;
    if p.pos != tokens.len() {
        return Err(format!("unexpected `{}`", tokens[p.pos].show()));
    }
    Ok(v)
}

#[derive(Clone, Debug, PartialEq)]
enum T {
    Int(i128),
    Float(f64),
    Str(String),
    Name(String),
    Op(&'static str),
}

impl T {
    fn show(&self) -> String {
        match self {
            T::Int(v) => v.to_string(),
            T::Float(v) => v.to_string(),
            T::Str(s) => format!("{s:?}"),
            T::Name(n) => n.clone(),
            T::Op(o) => (*o).to_owned(),
        }
    }
}

const OPS: [&str; 15] = [
    "<<", ">>", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "(", ")", "::",
];

fn tokenize(text: &str) -> Result<Vec<T>, String> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if text[i..].starts_with("//") {
            break;
        } else if text[i..].starts_with("/*") {
            i = text[i + 2..]
                .find("*/")
                .map(|j| i + 2 + j + 2)
                .ok_or("unterminated comment")?;
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let (tok, len) = number(&text[i..])?;
            out.push(tok);
            i += len;
        } else if c.is_ascii_alphabetic() || c == b'_' || (c == b':' && text[i..].starts_with("::"))
        {
            let start = i;
            loop {
                if text[i..].starts_with("::") {
                    i += 2;
                }
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                if i == s {
                    return Err(format!("incomplete name `{}`", &text[start..i]));
                }
                if !text[i..].starts_with("::") {
                    break;
                }
            }
            let name = text[start..i].trim_start_matches("::").to_owned();
            out.push(T::Name(name));
        } else if c == b'"' {
            let mut s = String::new();
            i += 1;
            loop {
                let ch = text[i..].chars().next().ok_or("unterminated string")?;
                i += ch.len_utf8();
                match ch {
                    '"' => break,
                    '\\' => {
                        let e = text[i..].chars().next().ok_or("unterminated string")?;
                        i += e.len_utf8();
                        s.push(match e {
                            'n' => '\n',
                            't' => '\t',
                            'r' => '\r',
                            '0' => '\0',
                            '\\' => '\\',
                            '"' => '"',
                            '\'' => '\'',
                            other => return Err(format!("unsupported escape `\\{other}`")),
                        });
                    }
                    ch => s.push(ch),
                }
            }
            out.push(T::Str(s));
        } else if let Some(op) = OPS.iter().find(|op| text[i..].starts_with(**op)) {
            out.push(T::Op(op));
            i += op.len();
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            return Err(format!("unexpected character `{ch}`"));
        }
    }
    Ok(out)
}

fn number(s: &str) -> Result<(T, usize), String> {
    let b = s.as_bytes();
    let mut i = 0;
    if s.starts_with("0x") || s.starts_with("0X") {
        i = 2;
        while i < b.len() && b[i].is_ascii_hexdigit() {
            i += 1;
        }
        let v =
            i128::from_str_radix(&s[2..i], 16).map_err(|_| format!("bad number `{}`", &s[..i]))?;
        return Ok((T::Int(v), i + int_suffix(&s[i..])));
    }
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut is_float = false;
    if b.get(i) == Some(&b'.') {
        is_float = true;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if b.get(j).is_some_and(u8::is_ascii_digit) {
            is_float = true;
            i = j;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
    }
    let lit = &s[..i];
    if is_float {
        let v: f64 = lit.parse().map_err(|_| format!("bad number `{lit}`"))?;
        let suffix = usize::from(matches!(b.get(i), Some(b'f' | b'F')));
        return Ok((T::Float(v), i + suffix));
    }
    if lit.len() > 1 && lit.starts_with('0') {
        return Err(format!(
            "`{lit}` would be octal in C++ and decimal elsewhere; write it without leading zeros"
        ));
    }
    let v: i128 = lit
        .parse()
        .map_err(|_| format!("number `{lit}` is too large"))?;
    Ok((T::Int(v), i + int_suffix(&s[i..])))
}

fn int_suffix(s: &str) -> usize {
    s.bytes()
        .take_while(|c| matches!(c, b'u' | b'U' | b'l' | b'L'))
        .take(3)
        .count()
}

struct ExprParser<'a, 'l> {
    tokens: &'a [T],
    pos: usize,
    lookup: &'l mut dyn FnMut(&str) -> Result<i128, String>,
    depth: usize,
}

fn as_int(v: &ConstValue) -> Option<i128> {
    match v {
        ConstValue::Int(i) => Some(*i),
        ConstValue::Bool(b) => Some(i128::from(*b)),
        _ => None,
    }
}

fn as_float(v: &ConstValue) -> Option<f64> {
    match v {
        ConstValue::Float(f) => Some(*f),
        other => as_int(other).map(|i| i as f64),
    }
}

impl ExprParser<'_, '_> {
    fn eat(&mut self, op: &str) -> bool {
        if matches!(self.tokens.get(self.pos), Some(T::Op(o)) if *o == op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn binary(
        &mut self,
        ops: &[&'static str],
        next: fn(&mut Self) -> Result<ConstValue, String>,
    ) -> Result<ConstValue, String> {
        let mut lhs = next(self)?;
        'outer: loop {
            for op in ops {
                if self.eat(op) {
                    let rhs = next(self)?;
                    lhs = apply(op, &lhs, &rhs)?;
                    continue 'outer;
                }
            }
            return Ok(lhs);
        }
    }

    fn bitor(&mut self) -> Result<ConstValue, String> {
        self.binary(&["|"], Self::bitxor)
    }
    fn bitxor(&mut self) -> Result<ConstValue, String> {
        self.binary(&["^"], Self::bitand)
    }
    fn bitand(&mut self) -> Result<ConstValue, String> {
        self.binary(&["&"], Self::shift)
    }
    fn shift(&mut self) -> Result<ConstValue, String> {
        self.binary(&["<<", ">>"], Self::additive)
    }
    fn additive(&mut self) -> Result<ConstValue, String> {
        self.binary(&["+", "-"], Self::multiplicative)
    }
    fn multiplicative(&mut self) -> Result<ConstValue, String> {
        self.binary(&["*", "/", "%"], Self::unary)
    }

    fn unary(&mut self) -> Result<ConstValue, String> {
        self.depth += 1;
        if self.depth > 200 {
            return Err("expression is nested too deeply".into());
        }
        let r = if self.eat("-") {
            match self.unary()? {
                ConstValue::Float(f) => Ok(ConstValue::Float(-f)),
                v => as_int(&v)
                    .and_then(i128::checked_neg)
                    .map(ConstValue::Int)
                    .ok_or_else(|| "`-` needs a number".to_owned()),
            }
        } else if self.eat("+") {
            self.unary()
        } else if self.eat("~") {
            let v = self.unary()?;
            as_int(&v)
                .map(|i| ConstValue::Int(!i))
                .ok_or_else(|| "`~` needs an integer".to_owned())
        } else if self.eat("!") {
            let v = self.unary()?;
            as_int(&v)
                .map(|i| ConstValue::Bool(i == 0))
                .ok_or_else(|| "`!` needs an integer".to_owned())
        } else {
            self.primary()
        };
        self.depth -= 1;
        r
    }

    fn primary(&mut self) -> Result<ConstValue, String> {
        let tok = self
            .tokens
            .get(self.pos)
            .cloned()
            .ok_or("unexpected end of expression")?;
        self.pos += 1;
        match tok {
            T::Int(v) => Ok(ConstValue::Int(v)),
            T::Float(f) => Ok(ConstValue::Float(f)),
            T::Str(s) => Ok(ConstValue::Str(s)),
            T::Name(n) if n == "true" => Ok(ConstValue::Bool(true)),
            T::Name(n) if n == "false" => Ok(ConstValue::Bool(false)),
            T::Name(n) => (self.lookup)(&n).map(ConstValue::Int),
            T::Op("(") => {
                let v = self.bitor()?;
                if !self.eat(")") {
                    return Err("missing `)`".into());
                }
                Ok(v)
            }
            other => Err(format!("unexpected `{}`", other.show())),
        }
    }
}

fn apply(op: &str, a: &ConstValue, b: &ConstValue) -> Result<ConstValue, String> {
    if let (Some(x), Some(y)) = (as_int(a), as_int(b)) {
        let overflow = || format!("integer overflow in `{x} {op} {y}`");
        let v = match op {
            "+" => x.checked_add(y),
            "-" => x.checked_sub(y),
            "*" => x.checked_mul(y),
            "/" => {
                if y == 0 {
                    return Err("division by zero".into());
                }
                x.checked_div(y)
            }
            "%" => {
                if y == 0 {
                    return Err("division by zero".into());
                }
                x.checked_rem(y)
            }
            "<<" => u32::try_from(y).ok().and_then(|s| x.checked_shl(s)),
            ">>" => u32::try_from(y).ok().and_then(|s| x.checked_shr(s)),
            "&" => Some(x & y),
            "|" => Some(x | y),
            "^" => Some(x ^ y),
            _ => None,
        };
        return v.map(ConstValue::Int).ok_or_else(overflow);
    }
    if let (Some(x), Some(y)) = (as_float(a), as_float(b)) {
        return match op {
            "+" => Ok(ConstValue::Float(x + y)),
            "-" => Ok(ConstValue::Float(x - y)),
            "*" => Ok(ConstValue::Float(x * y)),
            "/" => Ok(ConstValue::Float(x / y)),
            _ => Err(format!("`{op}` needs integers")),
        };
    }
    Err(format!("`{op}` cannot be applied to strings"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(s: &str) -> Result<ConstValue, String> {
        eval(s, &mut |n| match n {
            "FooEnum::foo2" => Ok(8),
            "bar3" => Ok(9),
            _ => Err(format!("unknown name `{n}`")),
        })
    }

    #[test]
    fn arithmetic_and_names() {
        assert_eq!(ev("2 * 4"), Ok(ConstValue::Int(8)));
        assert_eq!(ev("bar3 + 7"), Ok(ConstValue::Int(16)));
        assert_eq!(ev("FooEnum::foo2 * 2.0"), Ok(ConstValue::Float(16.0)));
        assert_eq!(ev("(1 << 4) | 0x3u"), Ok(ConstValue::Int(19)));
        assert_eq!(ev("-(3 - 5) % 3"), Ok(ConstValue::Int(2)));
        assert_eq!(ev("\"bar1\" "), Ok(ConstValue::Str("bar1".into())));
        assert_eq!(ev("X // note").unwrap_err(), "unknown name `X`");
        assert_eq!(ev("1000 // note"), Ok(ConstValue::Int(1000)));
        assert_eq!(ev("true"), Ok(ConstValue::Bool(true)));
        assert_eq!(ev("1.5f"), Ok(ConstValue::Float(1.5)));
    }

    #[test]
    fn errors_are_reported_not_panicked() {
        assert!(ev("1 / 0").is_err());
        assert!(ev("1 +").is_err());
        assert!(ev("(1").is_err());
        assert!(ev("\"a\" + 1").is_err());
        assert!(ev("010").is_err());
        assert!(ev("170141183460469231731687303715884105727 + 1").is_err());
        assert!(ev(&"(".repeat(10_000)).is_err());
        assert!(ev("").is_err());
    }
}
