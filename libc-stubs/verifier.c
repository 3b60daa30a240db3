/* verifier.c — the functions that verification tasks call by the __VERIFIER_ convention:
 * nondeterministic values, which touch no memory, assumptions, and atomic sections.
 *
 * An atomic section (__VERIFIER_atomic_begin ... __VERIFIER_atomic_end) runs without any other
 * atomic section running, which is what holding one lock means to a race detector: the stubs
 * take and release one mutex of their own, so accesses inside sections are correlated with it
 * and accesses outside are not. A program that defines these functions itself is analysed with
 * its own definitions. */

static pthread_mutex_t __VERIFIER_atomic_section = PTHREAD_MUTEX_INITIALIZER;

void __VERIFIER_atomic_begin(void)
{
    pthread_mutex_lock(&__VERIFIER_atomic_section);
}

void __VERIFIER_atomic_end(void)
{
    pthread_mutex_unlock(&__VERIFIER_atomic_section);
}

void __VERIFIER_assume(int condition)
{
    (void)condition;
}

_Bool __VERIFIER_nondet_bool(void)
{
    return __locksmith_nondet();
}

char __VERIFIER_nondet_char(void)
{
    return __locksmith_nondet();
}

unsigned char __VERIFIER_nondet_uchar(void)
{
    return __locksmith_nondet();
}

short __VERIFIER_nondet_short(void)
{
    return __locksmith_nondet();
}

unsigned short __VERIFIER_nondet_ushort(void)
{
    return __locksmith_nondet();
}

int __VERIFIER_nondet_int(void)
{
    return __locksmith_nondet();
}

unsigned int __VERIFIER_nondet_uint(void)
{
    return __locksmith_nondet();
}

unsigned int __VERIFIER_nondet_unsigned(void)
{
    return __locksmith_nondet();
}

long __VERIFIER_nondet_long(void)
{
    return __locksmith_nondet();
}

unsigned long __VERIFIER_nondet_ulong(void)
{
    return __locksmith_nondet();
}

long long __VERIFIER_nondet_longlong(void)
{
    return __locksmith_nondet();
}

unsigned long long __VERIFIER_nondet_ulonglong(void)
{
    return __locksmith_nondet();
}

size_t __VERIFIER_nondet_size_t(void)
{
    return __locksmith_nondet();
}
