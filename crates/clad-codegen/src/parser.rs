//! Recursive-descent parser for the CLAD grammar (spec §2). Syntax only: names are resolved
//! later, in [`crate::sema`].
//!
//! Errors are reported and the parser resynchronises (at the next member or declaration), so
//! one run reports every syntax error rather than only the first.

use crate::ast::*;
use crate::diagnostics::Diagnostic;
use crate::ir::Builtin;
use crate::lexer::{Keyword, Tok, Token};
use crate::source::Span;

/// Marker: an error was reported, the caller must resynchronise.
struct Stop;

type PResult<T> = Result<T, Stop>;

struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    diagnostics: &'a mut Vec<Diagnostic>,
    /// `namespace`/`include` blocks open around the current position.
    depth: usize,
    /// Blocks skipped for nesting too deep so far (an enclosing namespace is then not
    /// reported as empty).
    skipped_blocks: usize,
}

/// How deep a string length type may nest (`string[uint_16]` is 1; anything deeper is an
/// error anyway, reported by name resolution up to this depth).
const MAX_TYPE_NESTING: usize = 4;

/// Parses a token stream (ending in [`Tok::Eof`]) into items.
pub(crate) fn parse(tokens: &[Token], diagnostics: &mut Vec<Diagnostic>) -> Vec<Item> {
    let mut p = Parser {
        tokens,
        pos: 0,
        diagnostics,
        depth: 0,
        skipped_blocks: 0,
    };
    let items = p.items(None);
    if items.is_empty() && p.diagnostics.iter().all(|d| !d.is_error()) {
        let span = p.peek().span;
        p.diagnostics.push(
            Diagnostic::error(span, "expected a declaration, found end of input")
                .with_label("the file declares nothing")
                .with_note("a CLAD file must contain at least one declaration"),
        );
    }
    items
}

fn builtin_of(kw: Keyword) -> Option<Builtin> {
    Some(match kw {
        Keyword::Bool => Builtin::Bool,
        Keyword::Int8 => Builtin::Int8,
        Keyword::Int16 => Builtin::Int16,
        Keyword::Int32 => Builtin::Int32,
        Keyword::Int64 => Builtin::Int64,
        Keyword::Uint8 => Builtin::Uint8,
        Keyword::Uint16 => Builtin::Uint16,
        Keyword::Uint32 => Builtin::Uint32,
        Keyword::Uint64 => Builtin::Uint64,
        Keyword::Float32 => Builtin::Float32,
        Keyword::Float64 => Builtin::Float64,
        _ => return None,
    })
}

fn starts_decl(tok: &Tok) -> bool {
    matches!(
        tok,
        Tok::Kw(
            Keyword::Namespace
                | Keyword::Include
                | Keyword::Message
                | Keyword::Structure
                | Keyword::NoDefaultConstructor
                | Keyword::Enum
                | Keyword::Union
                | Keyword::Autounion
                | Keyword::EnumConcept
        )
    )
}

impl Parser<'_> {
    fn peek(&self) -> &Token {
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn peek_at(&self, n: usize) -> &Tok {
        &self.tokens[(self.pos + n).min(self.tokens.len() - 1)].tok
    }

    fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if self.pos < self.tokens.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn at(&self, tok: &Tok) -> bool {
        &self.peek().tok == tok
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.at(tok) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn prev_span(&self) -> Span {
        self.tokens[self.pos.saturating_sub(1)].span
    }

    fn error_expected(&mut self, what: &str) -> Stop {
        let t = self.peek();
        let d = Diagnostic::error(
            t.span,
            format!("expected {what}, found {}", t.tok.describe()),
        )
        .with_label(format!("expected {what}"));
        self.diagnostics.push(d);
        Stop
    }

    fn expect(&mut self, tok: Tok, what: &str) -> PResult<Token> {
        if self.at(&tok) {
            Ok(self.bump())
        } else {
            Err(self.error_expected(what))
        }
    }

    /// An unqualified name.
    fn name(&mut self, what: &str) -> PResult<Ident> {
        let ident = self.ident(what)?;
        if ident.text.contains("::") {
            self.diagnostics.push(
                Diagnostic::error(
                    ident.span,
                    format!("{what} `{}` cannot be qualified", ident.text),
                )
                .with_label("`::` is not allowed here"),
            );
        }
        Ok(ident)
    }

    fn ident(&mut self, what: &str) -> PResult<Ident> {
        match &self.peek().tok {
            Tok::Ident(text) => {
                let text = text.clone();
                let span = self.bump().span;
                Ok(Ident { text, span })
            }
            Tok::Kw(k) if !matches!(k, Keyword::Include) => {
                let k = *k;
                let t = self.peek();
                let d = Diagnostic::error(
                    t.span,
                    format!("expected {what}, found keyword `{}`", k.as_str()),
                )
                .with_label("CLAD keywords cannot be used as names");
                self.diagnostics.push(d);
                // The keyword was meant as a name: skip it, so that recovery does not take it
                // for the start of a declaration. (`message N {` after a missing name really is
                // a declaration, and is kept.)
                if !(starts_decl(&Tok::Kw(k)) && matches!(self.peek_at(1), Tok::Ident(_))) {
                    self.bump();
                }
                Err(Stop)
            }
            _ => Err(self.error_expected(what)),
        }
    }

    fn docs(&self, first: usize) -> Option<String> {
        self.tokens.get(first).and_then(|t| t.leading_doc.clone())
    }

    // ----- declarations -------------------------------------------------------------------

    /// Items until `}` (when `close` is the opening brace) or end of input.
    fn items(&mut self, close: Option<Span>) -> Vec<Item> {
        let mut items = Vec::new();
        loop {
            match &self.peek().tok {
                Tok::Eof => {
                    if let Some(open) = close {
                        let span = self.peek().span;
                        self.diagnostics.push(
                            Diagnostic::error(span, "expected `}`, found end of input")
                                .with_label("unclosed block")
                                .with_secondary(open, "block opened here"),
                        );
                    }
                    return items;
                }
                Tok::RBrace if close.is_some() => return items,
                Tok::RBrace => {
                    let span = self.bump().span;
                    self.diagnostics.push(
                        Diagnostic::error(span, "unexpected `}`")
                            .with_label("nothing to close here"),
                    );
                }
                _ => {
                    let start = self.pos;
                    match self.item() {
                        Ok(item) => items.push(item),
                        Err(Stop) => {
                            self.recover_item();
                            if self.pos == start {
                                // Always make progress, whatever the error.
                                self.bump();
                            }
                        }
                    }
                }
            }
        }
    }

    /// The items of a block opened at `open`, one level deeper.
    fn nested_items(&mut self, open: Span) -> Vec<Item> {
        self.depth += 1;
        let items = self.items(Some(open));
        self.depth -= 1;
        items
    }

    /// Skips to the start of the next declaration (or the `}` closing the enclosing block).
    fn recover_item(&mut self) {
        let mut depth = 0usize;
        loop {
            match &self.peek().tok {
                Tok::Eof => return,
                Tok::LBrace => depth += 1,
                Tok::RBrace => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                t if depth == 0 && starts_decl(t) => return,
                _ => {}
            }
            self.bump();
        }
    }

    /// Reports a `namespace`/`include` block that would nest deeper than
    /// [`crate::MAX_NESTING`] and skips it whole, iteratively: its header up to `{`, then
    /// everything to the matching `}`.
    fn too_deep(&mut self) -> Stop {
        let span = self.peek().span;
        self.skipped_blocks += 1;
        self.diagnostics.push(
            Diagnostic::error(
                span,
                format!("blocks nested more than {} deep", crate::MAX_NESTING),
            )
            .with_label("this block is skipped")
            .with_note(format!(
                "namespace blocks and #include files may nest at most {} deep together",
                crate::MAX_NESTING
            )),
        );
        self.bump();
        while !matches!(self.peek().tok, Tok::LBrace | Tok::RBrace | Tok::Eof) {
            self.bump();
        }
        if self.at(&Tok::LBrace) {
            let mut depth = 0usize;
            loop {
                match self.peek().tok {
                    Tok::Eof => break,
                    Tok::LBrace => depth += 1,
                    Tok::RBrace => {
                        depth -= 1;
                        if depth == 0 {
                            self.bump();
                            break;
                        }
                    }
                    _ => {}
                }
                self.bump();
            }
        }
        Stop
    }

    fn item(&mut self) -> PResult<Item> {
        let first = self.pos;
        let docs = self.docs(first);
        let opens_block = matches!(
            self.peek().tok,
            Tok::Kw(Keyword::Namespace | Keyword::Include)
        );
        if opens_block && self.depth >= crate::MAX_NESTING {
            return Err(self.too_deep());
        }
        match self.peek().tok.clone() {
            Tok::Kw(Keyword::Namespace) => {
                let start = self.bump().span;
                let name = self.ident("a namespace name")?;
                let open = self.expect(Tok::LBrace, "`{`")?.span;
                let skipped = self.skipped_blocks;
                let items = self.nested_items(open);
                let end = self.peek().span;
                self.eat(&Tok::RBrace);
                if items.is_empty() && skipped == self.skipped_blocks {
                    self.diagnostics.push(
                        Diagnostic::error(name.span, format!("namespace `{}` is empty", name.text))
                            .with_label("a namespace must contain at least one declaration"),
                    );
                }
                Ok(Item::Namespace {
                    name,
                    items,
                    span: start.to(end),
                })
            }
            Tok::Kw(Keyword::Include) => {
                let start = self.bump().span;
                // (Peek, not bump-and-rewind: at end of input `bump` does not advance.)
                let path = match self.peek().tok.clone() {
                    Tok::QuotedPath(p) => {
                        self.bump();
                        p
                    }
                    _ => return Err(self.error_expected("a quoted path")),
                };
                let open = self.expect(Tok::LBrace, "`{`")?.span;
                let items = self.nested_items(open);
                let end = self.peek().span;
                self.eat(&Tok::RBrace);
                Ok(Item::Include {
                    path,
                    items,
                    span: start.to(end),
                })
            }
            Tok::Kw(Keyword::NoDefaultConstructor | Keyword::Message | Keyword::Structure) => {
                self.message(docs).map(Item::Message)
            }
            Tok::Kw(Keyword::Enum) => self.enum_decl(docs).map(Item::Enum),
            Tok::Kw(Keyword::Union | Keyword::Autounion) => self.union(docs).map(Item::Union),
            Tok::Kw(Keyword::EnumConcept) => self.enum_concept(docs).map(Item::EnumConcept),
            _ => Err(self.error_expected("a declaration")),
        }
    }

    fn message(&mut self, docs: Option<String>) -> PResult<Message> {
        let start = self.peek().span;
        let no_default_constructor = self.eat(&Tok::Kw(Keyword::NoDefaultConstructor));
        let is_message = match self.peek().tok {
            Tok::Kw(Keyword::Message) => true,
            Tok::Kw(Keyword::Structure) => false,
            _ => return Err(self.error_expected("`message` or `structure`")),
        };
        self.bump();
        let name = self.name("a message name")?;
        let members = self.member_list(false)?;
        Ok(Message {
            is_message,
            no_default_constructor,
            name,
            members,
            docs,
            span: start.to(self.prev_span()),
        })
    }

    fn union(&mut self, docs: Option<String>) -> PResult<Union> {
        let start = self.bump();
        let autounion = start.tok == Tok::Kw(Keyword::Autounion);
        let dupes_allowed = self.eat(&Tok::Kw(Keyword::DupesAllowed));
        let name = self.name("a union name")?;
        let members = self.member_list(true)?;
        Ok(Union {
            autounion,
            dupes_allowed,
            name,
            members,
            docs,
            span: start.span.to(self.prev_span()),
        })
    }

    /// Reports a missing `,` or `}` after a member; when the next token starts a declaration,
    /// the body was most likely not closed, so the opening brace is shown too.
    fn error_after_member(&mut self, open: Span) {
        if starts_decl(&self.peek().tok) {
            let t = self.peek();
            let d = Diagnostic::error(
                t.span,
                format!("expected `,` or `}}`, found {}", t.tok.describe()),
            )
            .with_label("expected `,` or `}`")
            .with_secondary(open, "this block is not closed");
            self.diagnostics.push(d);
        } else {
            let _ = self.error_expected("`,` or `}`");
        }
    }

    /// `{ [member (, member)* [,]] }` with member-level error recovery.
    fn member_list(&mut self, in_union: bool) -> PResult<Vec<Member>> {
        let open = self.expect(Tok::LBrace, "`{`")?.span;
        let mut members = Vec::new();
        loop {
            if self.eat(&Tok::RBrace) {
                return Ok(members);
            }
            match self.member(in_union) {
                Ok(m) => {
                    members.push(m);
                    if self.eat(&Tok::Comma) {
                        if let (Some(last), Some(doc)) =
                            (members.last_mut(), &self.tokens[self.pos - 1].trailing_doc)
                        {
                            if last.docs.is_none() {
                                last.docs = Some(doc.clone());
                            }
                        }
                        continue;
                    }
                    if self.at(&Tok::RBrace) {
                        continue;
                    }
                    self.error_after_member(open);
                    if self.recover_member() {
                        return Ok(members);
                    }
                }
                Err(Stop) => {
                    if self.recover_member() {
                        return Ok(members);
                    }
                }
            }
        }
    }

    /// Skips to the next member; returns true when the body ended (or cannot continue).
    fn recover_member(&mut self) -> bool {
        loop {
            match &self.peek().tok {
                Tok::Eof => return true,
                Tok::Comma => {
                    self.bump();
                    return false;
                }
                Tok::RBrace => {
                    self.bump();
                    return true;
                }
                t if starts_decl(t) => return true,
                _ => {
                    self.bump();
                }
            }
        }
    }

    fn member(&mut self, in_union: bool) -> PResult<Member> {
        let first = self.pos;
        let mut docs = self.docs(first);
        let ty = self.type_expr()?;
        let name = match self.name("a member name") {
            Ok(name) => name,
            Err(stop) => {
                // `a = 5` or `a,`: the lone name was taken for the type.
                if let TypeExpr::Named(t) = &ty {
                    if matches!(
                        self.peek().tok,
                        Tok::Eq | Tok::Comma | Tok::RBrace | Tok::LSq
                    ) {
                        if let Some(d) = self.diagnostics.last_mut() {
                            d.notes.push(format!(
                                "`{}` was read as the member's type; is the type missing?",
                                t.text
                            ));
                        }
                    }
                }
                return Err(stop);
            }
        };
        let mut shape = MemberShape::Scalar;
        if self.eat(&Tok::LSq) {
            shape = match self.peek().tok.clone() {
                Tok::Kw(kw) if builtin_of(kw).is_some_and(|b| !b.is_float()) => {
                    let span = self.bump().span;
                    let length = (builtin_of(kw).expect("checked"), span);
                    let max = if self.eat(&Tok::Colon) {
                        Some(self.int_const("a maximum length")?)
                    } else {
                        None
                    };
                    MemberShape::VarArray { length, max }
                }
                Tok::IntDec(_) | Tok::IntHex(_) => MemberShape::FixedArray {
                    length: self.int_const("an array length")?,
                },
                Tok::Verbatim(text) if !in_union => {
                    let span = self.bump().span;
                    MemberShape::FixedArray {
                        length: Const {
                            kind: ConstKind::Verbatim(text),
                            span,
                        },
                    }
                }
                Tok::Verbatim(_) => {
                    let span = self.peek().span;
                    self.diagnostics.push(
                        Diagnostic::error(span, "verbatim array lengths are not allowed in unions")
                            .with_label("use an integer length"),
                    );
                    return Err(Stop);
                }
                _ => {
                    return Err(self.error_expected(
                        "an array length (an integer, verbatim text, or an integer length type)",
                    ))
                }
            };
            self.expect(Tok::RSq, "`]`")?;
        }
        let mut init = None;
        if self.eat(&Tok::Eq) {
            if in_union {
                init = Some(self.int_const("a tag value")?);
            } else if shape != MemberShape::Scalar {
                let span = self.prev_span();
                self.diagnostics.push(
                    Diagnostic::error(span, "array members cannot have a default value")
                        .with_label("remove the `= ...`"),
                );
                return Err(Stop);
            } else {
                init = Some(self.constant()?);
            }
        }
        if docs.is_none() {
            docs = self.tokens[self.pos - 1].trailing_doc.clone();
        }
        Ok(Member {
            span: ty.span().to(self.prev_span()),
            ty,
            name,
            shape,
            init,
            docs,
        })
    }

    fn type_expr(&mut self) -> PResult<TypeExpr> {
        self.type_expr_at(0)
    }

    /// A type inside `nesting` string length types.
    fn type_expr_at(&mut self, nesting: usize) -> PResult<TypeExpr> {
        match self.peek().tok.clone() {
            Tok::Kw(Keyword::String) => {
                let start = self.bump().span;
                let mut length = None;
                let mut max = None;
                // `string[` starts a length spec only when followed by a type (a member name
                // always comes first otherwise).
                if self.at(&Tok::LSq) {
                    if nesting >= MAX_TYPE_NESTING {
                        self.diagnostics.push(
                            Diagnostic::error(start, "string length types nested too deeply")
                                .with_label(
                                    "the length type of a string is uint_8, uint_16 or uint_32",
                                ),
                        );
                        return Err(Stop);
                    }
                    self.bump();
                    length = Some(Box::new(self.type_expr_at(nesting + 1)?));
                    if self.eat(&Tok::Colon) {
                        max = Some(self.int_const("a maximum length")?);
                    }
                    self.expect(Tok::RSq, "`]`")?;
                }
                Ok(TypeExpr::String {
                    length,
                    max,
                    span: start.to(self.prev_span()),
                })
            }
            Tok::Kw(kw) if builtin_of(kw).is_some() => {
                let span = self.bump().span;
                Ok(TypeExpr::Builtin(builtin_of(kw).expect("checked"), span))
            }
            Tok::Ident(_) => Ok(TypeExpr::Named(self.ident("a type")?)),
            _ => Err(self.error_expected("a type")),
        }
    }

    fn int_const(&mut self, what: &str) -> PResult<Const> {
        match self.peek().tok {
            Tok::IntDec(value) => Ok(Const {
                kind: ConstKind::Int { value, hex: false },
                span: self.bump().span,
            }),
            Tok::IntHex(value) => Ok(Const {
                kind: ConstKind::Int { value, hex: true },
                span: self.bump().span,
            }),
            _ => Err(self.error_expected(what)),
        }
    }

    fn constant(&mut self) -> PResult<Const> {
        match self.peek().tok.clone() {
            Tok::IntDec(_) | Tok::IntHex(_) => self.int_const("a constant"),
            Tok::Float(f) => Ok(Const {
                kind: ConstKind::Float(f),
                span: self.bump().span,
            }),
            Tok::Verbatim(v) => Ok(Const {
                kind: ConstKind::Verbatim(v),
                span: self.bump().span,
            }),
            _ => Err(self.error_expected("a constant (integer, float or verbatim text)")),
        }
    }

    fn enum_decl(&mut self, docs: Option<String>) -> PResult<Enum> {
        let start = self.bump().span;
        let no_cpp_class = self.eat(&Tok::Kw(Keyword::NoCppClass));
        let storage = match self.peek().tok {
            Tok::Kw(kw) if builtin_of(kw).is_some() => {
                (builtin_of(kw).expect("checked"), self.bump().span)
            }
            _ => return Err(self.error_expected("an enum storage type (int_8 ... uint_64)")),
        };
        let name = self.name("an enum name")?;
        let open = self.expect(Tok::LBrace, "`{`")?.span;
        let mut members = Vec::new();
        loop {
            if self.at(&Tok::RBrace) {
                if members.is_empty() {
                    let span = self.peek().span;
                    self.diagnostics.push(
                        Diagnostic::error(span, format!("enum `{}` has no members", name.text))
                            .with_label("an enum needs at least one member")
                            .with_secondary(open, "body starts here"),
                    );
                }
                self.bump();
                break;
            }
            let first = self.pos;
            let mut mdocs = self.docs(first);
            let parsed = (|| -> PResult<EnumMember> {
                let mname = self.name("an enum member name")?;
                let init = if self.eat(&Tok::Eq) {
                    match self.peek().tok.clone() {
                        Tok::Verbatim(v) => Some(Const {
                            kind: ConstKind::Verbatim(v),
                            span: self.bump().span,
                        }),
                        _ => Some(self.int_const("an integer or verbatim value")?),
                    }
                } else {
                    None
                };
                Ok(EnumMember {
                    name: mname,
                    init,
                    docs: None,
                })
            })();
            match parsed {
                Ok(mut m) => {
                    let comma = self.eat(&Tok::Comma);
                    if mdocs.is_none() {
                        mdocs = self.tokens[self.pos - 1].trailing_doc.clone();
                    }
                    m.docs = mdocs;
                    members.push(m);
                    if comma || self.at(&Tok::RBrace) {
                        continue;
                    }
                    self.error_after_member(open);
                    if self.recover_member() {
                        break;
                    }
                }
                Err(Stop) => {
                    if self.recover_member() {
                        break;
                    }
                }
            }
        }
        Ok(Enum {
            no_cpp_class,
            storage,
            name,
            members,
            docs,
            span: start.to(self.prev_span()),
        })
    }

    fn enum_concept(&mut self, docs: Option<String>) -> PResult<EnumConcept> {
        let start = self.bump().span;
        let return_type = self.type_expr()?;
        let name = self.name("an enum concept name")?;
        self.expect(Tok::LSq, "`[`")?;
        let enum_name = self.ident("an enum name")?;
        self.expect(Tok::RSq, "`]`")?;
        let open = self.expect(Tok::LBrace, "`{`")?.span;
        let mut members = Vec::new();
        loop {
            let parsed = (|| -> PResult<(Ident, Const)> {
                let m = self.name("an enum member name")?;
                self.expect(Tok::Eq, "`=`")?;
                let c = self.constant()?;
                Ok((m, c))
            })();
            match parsed {
                Ok(pair) => {
                    members.push(pair);
                    if self.eat(&Tok::RBrace) {
                        break;
                    }
                    if self.eat(&Tok::Comma) {
                        if self.at(&Tok::RBrace) {
                            let span = self.prev_span();
                            self.diagnostics.push(
                                Diagnostic::error(span, "trailing comma in enum_concept")
                                    .with_label("remove this comma")
                                    .with_note("unlike enums and messages, enum_concept bodies do not allow a trailing comma"),
                            );
                            self.bump();
                            break;
                        }
                        continue;
                    }
                    self.error_after_member(open);
                    if self.recover_member() {
                        break;
                    }
                }
                Err(Stop) => {
                    if self.recover_member() {
                        break;
                    }
                }
            }
        }
        let _ = self.peek_at(0);
        Ok(EnumConcept {
            return_type,
            name,
            enum_name,
            members,
            docs,
            span: start.to(self.prev_span()),
        })
    }
}
