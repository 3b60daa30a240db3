//! Splitting a command line written as one string into its arguments, as a POSIX shell does
//! without running anything: the `command` of a compilation database entry and the contents of a
//! `@file` response file.
//!
//! Whitespace separates words; single quotes keep everything up to the next one; double quotes
//! keep everything but a backslash before `"`, `\`, `$`, `` ` `` or a newline, which escapes it;
//! outside quotes a backslash escapes any character, and a backslash before a newline joins the
//! lines. Nothing is expanded (no variables, globs or `~`): a build system that wrote the command
//! already expanded what it meant. This module never reads files and never decides what a word
//! means.

/// Why a string is not a complete command line: a quote that is never closed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitError {
    /// The quote character, `'` or `"`.
    pub quote: char,
    /// Where the unclosed quote is, counted in characters from 1.
    pub column: usize,
}

impl std::fmt::Display for SplitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the quote {} at character {} is never closed",
            self.quote, self.column
        )
    }
}

/// The words of `text`.
pub fn split(text: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    // The word being read; `None` between words, so that `''` still makes an empty word.
    let mut word: Option<String> = None;
    let mut chars = text.chars().enumerate().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\\' => match chars.next() {
                Some((_, '\n')) => {}
                Some((_, escaped)) => word.get_or_insert_with(String::new).push(escaped),
                // A backslash that ends the text escapes nothing and is kept.
                None => word.get_or_insert_with(String::new).push('\\'),
            },
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some((_, '\'')) => break,
                        Some((_, c)) => w.push(c),
                        None => return Err(unclosed('\'', at)),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some((_, '"')) => break,
                        Some((_, '\\')) => match chars.peek() {
                            Some(&(_, '\n')) => {
                                chars.next();
                            }
                            Some(&(_, e @ ('"' | '\\' | '$' | '`'))) => {
                                chars.next();
                                w.push(e);
                            }
                            _ => w.push('\\'),
                        },
                        Some((_, c)) => w.push(c),
                        None => return Err(unclosed('"', at)),
                    }
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

fn unclosed(quote: char, at: usize) -> SplitError {
    SplitError {
        quote,
        column: at + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        split(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    #[test]
    fn whitespace_separates_words() {
        assert_eq!(
            words("  cc -c\ta.c\n\n -o  a.o "),
            ["cc", "-c", "a.c", "-o", "a.o"]
        );
        assert!(words("").is_empty());
        assert!(words(" \t\n").is_empty());
    }

    #[test]
    fn quotes_keep_spaces_and_join_with_their_neighbours() {
        assert_eq!(
            words(r#"cc "-DNAME=a b" '-I/my dir' -D'Q="x"'"#),
            ["cc", "-DNAME=a b", "-I/my dir", r#"-DQ="x""#]
        );
        assert_eq!(words(r#"a"b"'c'd"#), ["abcd"]);
        assert_eq!(words(r#"'' """#), ["", ""]);
    }

    #[test]
    fn backslashes_escape_as_in_the_shell() {
        // CMake writes a string-valued define this way.
        assert_eq!(
            words(r#"cc -DVERSION=\"1.2\" a\ b.c"#),
            ["cc", r#"-DVERSION="1.2""#, "a b.c"]
        );
        // Inside double quotes only a few characters are escaped; the rest keep the backslash.
        assert_eq!(words(r#""a\"b\\c\$d\n""#), [r#"a"b\c$d\n"#]);
        // Inside single quotes nothing is.
        assert_eq!(words(r"'a\'"), [r"a\"]);
        assert_eq!(words("a\\\nb \"c\\\nd\""), ["ab", "cd"]);
        assert_eq!(words(r"end\"), [r"end\"]);
    }

    #[test]
    fn an_unclosed_quote_is_an_error_at_the_quote() {
        assert_eq!(
            split("cc 'a.c"),
            Err(SplitError {
                quote: '\'',
                column: 4
            })
        );
        let e = split(r#"cc -D"X=\" a.c"#).unwrap_err();
        assert_eq!((e.quote, e.column), ('"', 6));
        assert_eq!(e.to_string(), "the quote \" at character 6 is never closed");
    }
}
