/* getopt.c — <getopt.h> / <unistd.h> option parsing.
 *
 * getopt keeps its state in the globals optind, optarg and optopt (declared extern by the headers
 * and defined here) plus a hidden static position inside the current argument; it reads opterr
 * and the argv array and strings. optarg is left pointing into an argv string, which is the data
 * flow the stubs keep. getopt_long also writes *longindex and, for an option whose `flag` field is
 * not null, stores the option's `val` through that pointer. None of this is thread-safe: programs
 * call it from main before starting threads, which the analysis sees as unshared. */

char *optarg;
int optind = 1;
int opterr = 1;
int optopt = '?';

static char *getopt_position;

int getopt(int argc, char *const argv[], const char *optstring)
{
    char *arg;
    __locksmith_read(optstring);
    arg = argv[optind];
    __locksmith_read(arg);
    getopt_position = arg;
    __locksmith_read(&opterr);
    optopt = __locksmith_nondet();
    optarg = arg;
    optind = optind + 1;
    return __locksmith_nondet();
}

int getopt_long(int argc, char *const argv[], const char *optstring, const struct option *longopts,
                int *longindex)
{
    int c = getopt(argc, argv, optstring);
    __locksmith_read(longopts);
    __locksmith_read(longopts->name);
    if (longopts->flag != NULL)
        *longopts->flag = longopts->val;
    if (longindex != NULL)
        *longindex = __locksmith_nondet();
    return c;
}

int getopt_long_only(int argc, char *const argv[], const char *optstring,
                     const struct option *longopts, int *longindex)
{
    return getopt_long(argc, argv, optstring, longopts, longindex);
}
