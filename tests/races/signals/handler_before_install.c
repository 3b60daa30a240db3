/* Accesses before and after a handler is installed, in a program whose only
 * other "thread" is the handler. After installation, main keeps writing
 * `counter` while the handler (raised by main itself) also writes it: RACE
 * on both (main's write before the installation is race-free but left
 * unannotated, the location being racy). `table` is filled before the
 * installation and only read afterwards (by main and by the handler):
 * NORACE.
 * ThreadSanitizer cannot observe the race on `counter`: the handler always
 * runs on the main thread, which raised it. */
#include <signal.h>
#include <stdio.h>

int counter;
int table[4];

static void on_usr1(int sig)
{
    counter += table[sig % 4]; // RACE: main writes counter after install
}

int main(void)
{
    long s = 0;
    for (int i = 0; i < 4; i++)
        table[i] = i + 1; // NORACE needs=sharing: before the handler exists
    counter = 10;
    signal(SIGUSR1, on_usr1);
    for (int i = 0; i < 20; i++) {
        counter++; // RACE: the handler writes counter
        s += table[i % 4]; // NORACE: table is read-only after install
        if (i % 5 == 0)
            raise(SIGUSR1);
    }
    printf("%d %ld\n", counter, s);
    return 0;
}
