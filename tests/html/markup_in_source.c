/* The HTML report must show this program's text as text: its racing lines hold strings and
 * comments that would be markup if they were not escaped (tests/html.rs copies it into a folder
 * whose name holds '<', '>', '&' and quotes). */
#include <pthread.h>
#include <stdio.h>

static const char *banner = "<b>hits</b> & \"misses\" 'total'";
long hits_lt_gt; /* the <hits> & <misses> counter */
pthread_mutex_t hits_lock = PTHREAD_MUTEX_INITIALIZER;

static void *count_hits(void *arg) {
    (void)arg;
    hits_lt_gt++; /* </td></tr><script>alert("&amp;")</script> &lt;raw&gt; */
    pthread_mutex_lock(&hits_lock);
    hits_lt_gt += 2; /* <i>locked</i> & fine */
    pthread_mutex_unlock(&hits_lock);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, count_hits, NULL);
    pthread_create(&b, NULL, count_hits, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%s &lt;%ld&gt;\n", banner, hits_lt_gt);
    return 0;
}
