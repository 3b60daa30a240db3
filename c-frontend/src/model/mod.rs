//! What locksmith knows about library functions by name.
