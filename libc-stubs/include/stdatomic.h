/* Placeholder: the stdatomic.h shim is being written. */
