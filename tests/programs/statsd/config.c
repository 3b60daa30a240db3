/*
 * config.c - defaults, "key = value" config files and SIGHUP reloads.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "receiver.h"

struct config g_config;
pthread_mutex_t config_lock = PTHREAD_MUTEX_INITIALIZER;

void config_set_defaults(struct config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->bind_addr, sizeof cfg->bind_addr, "%s", "127.0.0.1");
    cfg->port = 8125;
    cfg->receivers = 4;
    cfg->max_packet = 1432;
    snprintf(cfg->output_path, sizeof cfg->output_path, "%s", "-");
    cfg->config_path[0] = '\0';
    cfg->flush_interval_ms = 10000;
    cfg->percentile = 90.0;
    snprintf(cfg->prefix, sizeof cfg->prefix, "%s", "stats");
    cfg->stale_after_s = 300;
}

static int parse_long(const char *s, long min, long max, long *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

static int parse_double(const char *s, double min, double max, double *out)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !(v >= min && v <= max))
        return -1;
    *out = v;
    return 0;
}

static int copy_string(char *dst, size_t dstlen, const char *src)
{
    size_t len = strlen(src);

    if (len >= dstlen)
        return -1;
    memcpy(dst, src, len + 1);
    return 0;
}

static int valid_prefix(const char *p)
{
    for (; *p; p++) {
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.')
            return 0;
    }
    return 1;
}

int config_set_key(struct config *cfg, const char *key, const char *value,
                   char *err, size_t errlen)
{
    unsigned bit;
    long l;
    double d;

    if (strcmp(key, "bind") == 0) {
        bit = CONFIG_KEY_BIND;
        if (copy_string(cfg->bind_addr, sizeof cfg->bind_addr, value) != 0)
            goto too_long;
    } else if (strcmp(key, "port") == 0) {
        bit = CONFIG_KEY_PORT;
        if (parse_long(value, 1, 65535, &l) != 0)
            goto bad;
        cfg->port = (unsigned short)l;
    } else if (strcmp(key, "receivers") == 0) {
        bit = CONFIG_KEY_RECEIVERS;
        if (parse_long(value, 1, MAX_RECEIVERS, &l) != 0)
            goto bad;
        cfg->receivers = (int)l;
    } else if (strcmp(key, "max_packet") == 0) {
        bit = CONFIG_KEY_MAX_PACKET;
        if (parse_long(value, 64, CONFIG_MAX_PACKET, &l) != 0)
            goto bad;
        cfg->max_packet = (size_t)l;
    } else if (strcmp(key, "output") == 0) {
        bit = CONFIG_KEY_OUTPUT;
        if (copy_string(cfg->output_path, sizeof cfg->output_path, value) != 0)
            goto too_long;
    } else if (strcmp(key, "flush_interval") == 0) {
        bit = CONFIG_KEY_FLUSH_INTERVAL;
        if (parse_long(value, 1, 3600L * 1000L, &l) != 0)
            goto bad;
        cfg->flush_interval_ms = l;
    } else if (strcmp(key, "percentile") == 0) {
        bit = CONFIG_KEY_PERCENTILE;
        if (parse_double(value, 0.001, 100.0, &d) != 0)
            goto bad;
        cfg->percentile = d;
    } else if (strcmp(key, "prefix") == 0) {
        bit = CONFIG_KEY_PREFIX;
        if (!valid_prefix(value)) {
            snprintf(err, errlen, "prefix '%s' contains invalid characters",
                     value);
            return -1;
        }
        if (copy_string(cfg->prefix, sizeof cfg->prefix, value) != 0)
            goto too_long;
    } else if (strcmp(key, "stale_after") == 0) {
        bit = CONFIG_KEY_STALE_AFTER;
        if (parse_long(value, 0, 86400L * 30, &l) != 0)
            goto bad;
        cfg->stale_after_s = l;
    } else {
        snprintf(err, errlen, "unknown setting '%s'", key);
        return -1;
    }
    cfg->keys_set |= bit;
    return 0;

bad:
    snprintf(err, errlen, "invalid value '%s' for %s", value, key);
    return -1;
too_long:
    snprintf(err, errlen, "value for %s is too long", key);
    return -1;
}

static char *trim(char *s)
{
    char *end;

    while (isspace((unsigned char)*s))
        s++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

int config_parse_file(const char *path, struct config *cfg,
                      char *err, size_t errlen)
{
    char line[512];
    char msg[160];
    unsigned lineno = 0;
    FILE *f;

    f = fopen(path, "r");
    if (f == NULL) {
        snprintf(err, errlen, "cannot open %s: %s", path,
                 errno == ENOENT ? "no such file" : "access failed");
        return -1;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        char *hash, *eq, *key, *value;

        lineno++;
        if (strchr(line, '\n') == NULL && !feof(f)) {
            snprintf(err, errlen, "%s:%u: line too long", path, lineno);
            fclose(f);
            return -1;
        }
        hash = strchr(line, '#');
        if (hash != NULL)
            *hash = '\0';
        key = trim(line);
        if (*key == '\0')
            continue;
        eq = strchr(key, '=');
        if (eq == NULL) {
            snprintf(err, errlen, "%s:%u: expected 'key = value'", path, lineno);
            fclose(f);
            return -1;
        }
        *eq = '\0';
        value = trim(eq + 1);
        key = trim(key);
        if (config_set_key(cfg, key, value, msg, sizeof msg) != 0) {
            snprintf(err, errlen, "%s:%u: %s", path, lineno, msg);
            fclose(f);
            return -1;
        }
    }
    if (ferror(f)) {
        snprintf(err, errlen, "%s: read error", path);
        fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}

/* Startup-only settings are read-only once the threads run: no lock needed. */
static int startup_settings_differ(const struct config *fresh)
{
    unsigned k = fresh->keys_set;

    return ((k & CONFIG_KEY_BIND) &&
            strcmp(fresh->bind_addr, g_config.bind_addr) != 0) ||
           ((k & CONFIG_KEY_PORT) && fresh->port != g_config.port) ||
           ((k & CONFIG_KEY_RECEIVERS) &&
            fresh->receivers != g_config.receivers) ||
           ((k & CONFIG_KEY_MAX_PACKET) &&
            fresh->max_packet != g_config.max_packet) ||
           ((k & CONFIG_KEY_OUTPUT) &&
            strcmp(fresh->output_path, g_config.output_path) != 0);
}

/*
 * Called from the supervisor (main thread) when SIGHUP arrives.  The file
 * is parsed into a private struct first so that a broken file leaves the
 * running configuration untouched; then the reloadable settings are
 * swapped in under config_lock.  Startup-only settings are never written
 * here, which is what lets the other threads read them without the lock.
 */
int config_reload(void)
{
    struct config fresh;
    char err[320];
    const char *path = g_config.config_path;

    if (path[0] == '\0') {
        log_msg(LVL_INFO, "SIGHUP: no configuration file, nothing to reload");
        return 0;
    }
    config_set_defaults(&fresh);
    if (config_parse_file(path, &fresh, err, sizeof err) != 0) {
        log_msg(LVL_WARN, "reload failed, keeping current settings: %s", err);
        return -1;
    }
    if (startup_settings_differ(&fresh))
        log_msg(LVL_WARN, "reload: changes to bind, port, receivers, "
                "max_packet or output need a restart and were ignored");

    pthread_mutex_lock(&config_lock);
    g_config.flush_interval_ms = fresh.flush_interval_ms; // RACE(interval)
    g_config.percentile = fresh.percentile; // NORACE
    memcpy(g_config.prefix, fresh.prefix, sizeof g_config.prefix); // NORACE
    g_config.stale_after_s = fresh.stale_after_s; // NORACE
    pthread_mutex_unlock(&config_lock);

    log_msg(LVL_INFO, "configuration reloaded from %s (flush every %ld ms, "
            "p%g, prefix '%s')", path, fresh.flush_interval_ms,
            fresh.percentile, fresh.prefix);
    return 0;
}
