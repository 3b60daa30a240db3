//! Lexer, parser and printer for the concrete syntax of λ▷ (DESIGN.md §3).
