/* Preprocessed input that kept its comments (`gcc -E -C` keeps them; verification tasks ship
   such `.i` files). Every declaration after a comment must still be read, `main` included.
   Written as `gcc -E -C -P` writes it (no line markers); the declarations below stand in
   for the system headers, written here for this fixture
   (x86-64 glibc layouts; a zeroed mutex is PTHREAD_MUTEX_INITIALIZER there).
   RACE: `counter` is incremented by both workers without a lock.
   NORACE: `guarded` is incremented under `lock`; main reads both after the joins. */
typedef unsigned long int pthread_t; /* a thread id */
typedef union
{
  struct { int lock; unsigned int count; int owner; unsigned int nusers; int kind;
           short spins; short elision; void *prev; void *next; } data; // the mutex state
  char size[40];
  long int align;
} pthread_mutex_t;
/* The calls the program makes. A comment may hold what looks like code:
   int counter = 1; pthread_mutex_lock(&lock); */
extern int pthread_create (pthread_t *thread, const void *attr,
                           void *(*start) (void *), void *arg) __attribute__ ((__nothrow__));
extern int pthread_join (pthread_t thread, void **ret);
extern int pthread_mutex_lock (pthread_mutex_t *m) __attribute__ ((__nothrow__)); // locks
extern int pthread_mutex_unlock (pthread_mutex_t *m) __attribute__ ((__nothrow__));
extern int printf (const char *__restrict format, ...);

static pthread_mutex_t lock = { { 0, 0, 0, 0, 0, 0, 0, 0, 0 } }; /* a comment after code */
int counter; // a line comment
int guarded; /* a comment
                over two lines */
static void *worker(void *arg)
{
    (void)arg; /* "not a string" */ char quote = '"'; (void)quote;
    for (int i = 0; i < 1000; i++) {
        counter++; /* inside */ // RACE: no lock
        pthread_mutex_lock(&lock);
        guarded++; // NORACE: lock held
        pthread_mutex_unlock(&lock);
    }
    return (void *)"/* not a comment */";
}
int main(void)
{
    pthread_t a, b;
    pthread_create(&a, ((void *)0), worker, ((void *)0));
    pthread_create(&b, ((void *)0), worker, ((void *)0));
    pthread_join(a, ((void *)0));
    pthread_join(b, ((void *)0));
    printf("%d %d\n", counter, guarded); // NORACE: after the joins
    return 0;
}
