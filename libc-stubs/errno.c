/* errno.c — errno and h_errno.
 *
 * glibc defines `errno` as `(*__errno_location ())` and `h_errno` as `(*__h_errno_location ())`:
 * each thread has its own variable. The stubs return the address of a _Thread_local object, so
 * that `errno = 0` or `if (errno == EINTR)` in two threads is correctly seen as touching
 * thread-private memory and never as a race. Library functions that set errno on failure do not
 * model that write: it is thread-private and so never matters for races. */

static _Thread_local int errno_value;
static _Thread_local int h_errno_value;

int *__errno_location(void)
{
    return &errno_value;
}

int *__h_errno_location(void)
{
    return &h_errno_value;
}

/* The BSDs' and macOS's name of __errno_location, in code preprocessed with their headers. */
int *__error(void)
{
    return &errno_value;
}
