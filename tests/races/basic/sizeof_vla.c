/* `sizeof`, `_Alignof` and casts evaluate the sizes of a variably modified
 * type (C11 6.5.3.4p2): `sizeof(int[width])` reads `width`. The resizer
 * thread writes `width` with no lock while main computes such a size: RACE
 * on both lines. `height` is only read, in the same way: NORACE. */
#include <pthread.h>
#include <stdio.h>

int width = 4;
int height = 3;

static void *resizer(void *arg)
{
    (void)arg;
    width = 8; // RACE: main reads it in a sizeof
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, resizer, NULL);
    unsigned long row = sizeof(int[width]); // RACE: the size expression reads width
    unsigned long col = sizeof(char[height]); // NORACE: height is never written
    pthread_join(t, NULL);
    printf("%lu %lu\n", row, col);
    return 0;
}
