//! The λ▷ lexer: turns source text into a flat vector of tokens in one linear pass.
//!
//! Lexing happens up front so that the parser can look at tokens without re-scanning text. A
//! lexical error does not abort lexing immediately from the parser's point of view: the token
//! vector ends with a [`Tok::Error`] token at the offending position, and the parser reports the
//! stored error only when it reaches that token. This way the error that `parse` returns is
//! always the first problem in reading order, whether it is lexical or grammatical.

use super::SyntaxError;
use crate::ast::Span;

/// The kind of a token. Identifier names are not copied: they are read back from the token's span.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Ident,
    Int(i64),
    /// `.1` or `.2`.
    Proj(u8),
    Fun,
    If0,
    Then,
    Else,
    Let,
    Rec,
    In,
    Newlock,
    Ref,
    Pack,
    Unpack,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Semi,
    ColonEq,
    Bang,
    Arrow,
    Eq,
    /// The end of the input; its span is empty and sits at the end of the text.
    Eof,
    /// The place where lexing failed; the error itself is in [`Lexed::error`].
    Error,
}

impl Tok {
    /// Whether the token is a reserved word, so that messages can say "keyword `in`" rather than
    /// leaving the reader to wonder why `in` is not accepted as a name.
    pub(crate) fn is_keyword(self) -> bool {
        matches!(
            self,
            Tok::Fun
                | Tok::If0
                | Tok::Then
                | Tok::Else
                | Tok::Let
                | Tok::Rec
                | Tok::In
                | Tok::Newlock
                | Tok::Ref
                | Tok::Pack
                | Tok::Unpack
        )
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: Tok,
    pub span: Span,
}

/// The result of lexing: tokens ending in exactly one [`Tok::Eof`] or [`Tok::Error`].
pub(crate) struct Lexed {
    pub tokens: Vec<Token>,
    /// The lexical error described by the final [`Tok::Error`] token, if there is one.
    pub error: Option<SyntaxError>,
}

fn keyword(word: &str) -> Option<Tok> {
    Some(match word {
        "fun" => Tok::Fun,
        "if0" => Tok::If0,
        "then" => Tok::Then,
        "else" => Tok::Else,
        "let" => Tok::Let,
        "rec" => Tok::Rec,
        "in" => Tok::In,
        "newlock" => Tok::Newlock,
        "ref" => Tok::Ref,
        "pack" => Tok::Pack,
        "unpack" => Tok::Unpack,
        _ => return None,
    })
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'\''
}

/// Lexes all of `text`.
pub(crate) fn lex(text: &str) -> Lexed {
    let mut lexer = Lexer {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        tokens: Vec::new(),
    };
    match lexer.run() {
        Ok(()) => {
            let end = text.len();
            lexer.tokens.push(Token {
                kind: Tok::Eof,
                span: Span::new(end, end),
            });
            Lexed {
                tokens: lexer.tokens,
                error: None,
            }
        }
        Err(error) => {
            lexer.tokens.push(Token {
                kind: Tok::Error,
                span: error.span,
            });
            Lexed {
                tokens: lexer.tokens,
                error: Some(error),
            }
        }
    }
}

struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    tokens: Vec<Token>,
}

impl Lexer<'_> {
    fn peek_at(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    fn push(&mut self, kind: Tok, start: usize) {
        self.tokens.push(Token {
            kind,
            span: Span::new(start, self.pos),
        });
    }

    fn error(message: String, start: usize, end: usize) -> Result<(), SyntaxError> {
        Err(SyntaxError {
            message,
            span: Span::new(start, end),
        })
    }

    fn run(&mut self) -> Result<(), SyntaxError> {
        while let Some(b) = self.peek_at(0) {
            let start = self.pos;
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' => self.pos += 1,
                b'(' if self.peek_at(1) == Some(b'*') => self.skip_comment()?,
                b'(' => self.single(Tok::LParen),
                b')' => self.single(Tok::RParen),
                b'[' => self.single(Tok::LBracket),
                b']' => self.single(Tok::RBracket),
                b',' => self.single(Tok::Comma),
                b';' => self.single(Tok::Semi),
                b'!' => self.single(Tok::Bang),
                b'=' => self.single(Tok::Eq),
                b':' if self.peek_at(1) == Some(b'=') => {
                    self.pos += 2;
                    self.push(Tok::ColonEq, start);
                }
                b'-' if self.peek_at(1) == Some(b'>') => {
                    self.pos += 2;
                    self.push(Tok::Arrow, start);
                }
                b'.' => self.projection()?,
                b'0'..=b'9' => self.integer()?,
                _ if is_ident_start(b) => self.identifier(),
                b':' => {
                    return Self::error(
                        "unexpected character `:` (a write is written `target :=[lock] value`)"
                            .to_string(),
                        start,
                        start + 1,
                    )
                }
                b'-' => {
                    return Self::error(
                        "unexpected character `-` (λ▷ has no arithmetic or negative numbers, and \
                         `->` only follows `fun x`)"
                            .to_string(),
                        start,
                        start + 1,
                    )
                }
                _ => {
                    // `pos` is always on a character boundary: every other branch advances over
                    // ASCII bytes only, and comments end on the ASCII `)` of `*)`.
                    let c = self.text[start..].chars().next().unwrap_or('\u{fffd}');
                    // Invisible characters are shown escaped so that the message says something.
                    let shown = if c.is_control() || c.is_whitespace() {
                        c.escape_debug().to_string()
                    } else {
                        c.to_string()
                    };
                    return Self::error(
                        format!("unexpected character `{shown}`"),
                        start,
                        start + c.len_utf8(),
                    );
                }
            }
        }
        Ok(())
    }

    fn single(&mut self, kind: Tok) {
        let start = self.pos;
        self.pos += 1;
        self.push(kind, start);
    }

    /// Skips a possibly nested `(* … *)` comment starting at `pos`.
    fn skip_comment(&mut self) -> Result<(), SyntaxError> {
        let start = self.pos;
        self.pos += 2;
        let mut depth = 1usize;
        loop {
            match (self.peek_at(0), self.peek_at(1)) {
                (None, _) => {
                    return Self::error("unterminated comment".to_string(), start, start + 2)
                }
                (Some(b'('), Some(b'*')) => {
                    depth += 1;
                    self.pos += 2;
                }
                (Some(b'*'), Some(b')')) => {
                    depth -= 1;
                    self.pos += 2;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                _ => self.pos += 1,
            }
        }
    }

    fn digits(&mut self) {
        while self.peek_at(0).is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
    }

    /// Rejects a number glued to identifier characters (`12ab`, `.1x`), which is almost certainly
    /// a typo rather than an application of a number to a variable.
    fn reject_glued(&mut self, start: usize, what: &str) -> Result<(), SyntaxError> {
        if self.peek_at(0).is_some_and(is_ident_continue) {
            while self.peek_at(0).is_some_and(is_ident_continue) {
                self.pos += 1;
            }
            return Self::error(
                format!("malformed {what} `{}`", &self.text[start..self.pos]),
                start,
                self.pos,
            );
        }
        Ok(())
    }

    fn integer(&mut self) -> Result<(), SyntaxError> {
        let start = self.pos;
        self.digits();
        self.reject_glued(start, "number")?;
        let literal = &self.text[start..self.pos];
        let mut value: i64 = 0;
        for b in literal.bytes() {
            match value
                .checked_mul(10)
                .and_then(|v| v.checked_add(i64::from(b - b'0')))
            {
                Some(v) => value = v,
                None => {
                    return Self::error(
                        format!(
                            "integer literal `{literal}` is too large (the largest integer is {})",
                            i64::MAX
                        ),
                        start,
                        self.pos,
                    )
                }
            }
        }
        self.push(Tok::Int(value), start);
        Ok(())
    }

    fn projection(&mut self) -> Result<(), SyntaxError> {
        let start = self.pos;
        self.pos += 1;
        if !self.peek_at(0).is_some_and(|b| b.is_ascii_digit()) {
            return Self::error(
                "expected `1` or `2` right after `.` (a projection is written `e.1` or `e.2`)"
                    .to_string(),
                start,
                start + 1,
            );
        }
        self.digits();
        self.reject_glued(start, "projection")?;
        let index = match &self.text[start + 1..self.pos] {
            "1" => 1,
            "2" => 2,
            _ => {
                return Self::error(
                    format!(
                        "there is no projection `{}`: pairs only have `.1` and `.2`",
                        &self.text[start..self.pos]
                    ),
                    start,
                    self.pos,
                )
            }
        };
        self.push(Tok::Proj(index), start);
        Ok(())
    }

    fn identifier(&mut self) {
        let start = self.pos;
        self.pos += 1;
        while self.peek_at(0).is_some_and(is_ident_continue) {
            self.pos += 1;
        }
        let kind = keyword(&self.text[start..self.pos]).unwrap_or(Tok::Ident);
        self.push(kind, start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Tok> {
        lex(text).tokens.into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn projections_are_split_from_their_operand() {
        assert_eq!(kinds("x.1"), vec![Tok::Ident, Tok::Proj(1), Tok::Eof]);
        assert_eq!(
            kinds("1.2.1"),
            vec![Tok::Int(1), Tok::Proj(2), Tok::Proj(1), Tok::Eof]
        );
    }

    #[test]
    fn compound_operators_allow_space_before_the_bracket() {
        assert_eq!(
            kinds(":= [ ! ["),
            vec![
                Tok::ColonEq,
                Tok::LBracket,
                Tok::Bang,
                Tok::LBracket,
                Tok::Eof
            ]
        );
    }

    #[test]
    fn keywords_and_primed_identifiers() {
        assert_eq!(
            kinds("rec rec' _ in0"),
            vec![Tok::Rec, Tok::Ident, Tok::Ident, Tok::Ident, Tok::Eof]
        );
    }

    #[test]
    fn lexing_stops_at_the_first_error() {
        let lexed = lex("x λ y");
        assert_eq!(lexed.tokens.last().map(|t| t.kind), Some(Tok::Error));
        let error = lexed.error.expect("an error");
        assert_eq!(error.span, Span::new(2, 4));
        assert_eq!(error.message, "unexpected character `λ`");
    }
}
