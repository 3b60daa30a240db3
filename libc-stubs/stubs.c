/* Placeholder: the libc stubs are being written. */
