/*
 * config.h - runtime configuration.
 *
 * The settings are split in two groups.  Startup-only settings (addresses,
 * thread counts, output file) are filled in by main() before any thread is
 * created and are read-only afterwards.  Reloadable settings may be replaced
 * by config_reload() when the daemon receives SIGHUP; they are written only
 * with config_lock held, and readers must hold config_lock as well.
 */
#ifndef STATSD_CONFIG_H
#define STATSD_CONFIG_H

#include <pthread.h>
#include <stddef.h>

#define CONFIG_ADDR_MAX    64
#define CONFIG_PATH_MAX    256
#define CONFIG_PREFIX_MAX  64
#define CONFIG_MAX_PACKET  8192

struct config {
    /* --- startup only --------------------------------------------------- */
    char bind_addr[CONFIG_ADDR_MAX];
    unsigned short port;
    int receivers;
    size_t max_packet;
    char output_path[CONFIG_PATH_MAX];   /* "-" means stdout */
    char config_path[CONFIG_PATH_MAX];   /* "" if no config file */

    /* --- reloadable (config_lock) -------------------------------------- */
    long flush_interval_ms;
    double percentile;
    char prefix[CONFIG_PREFIX_MAX];
    long stale_after_s;                  /* 0 disables the idle filter */

    unsigned keys_set;                   /* CONFIG_KEY_* given explicitly */
};

/* Bits of keys_set. */
#define CONFIG_KEY_BIND           0x001u
#define CONFIG_KEY_PORT           0x002u
#define CONFIG_KEY_RECEIVERS      0x004u
#define CONFIG_KEY_MAX_PACKET     0x008u
#define CONFIG_KEY_OUTPUT         0x010u
#define CONFIG_KEY_FLUSH_INTERVAL 0x020u
#define CONFIG_KEY_PERCENTILE     0x040u
#define CONFIG_KEY_PREFIX         0x080u
#define CONFIG_KEY_STALE_AFTER    0x100u
#define CONFIG_STARTUP_KEYS       0x01fu

extern struct config g_config;
extern pthread_mutex_t config_lock;

void config_set_defaults(struct config *cfg);

/*
 * Sets one key ("flush_interval", "port", ...) from its textual value.
 * Returns 0 on success, -1 with a message in err otherwise.
 */
int config_set_key(struct config *cfg, const char *key, const char *value,
                   char *err, size_t errlen);

/* Reads "key = value" lines from path into cfg. */
int config_parse_file(const char *path, struct config *cfg,
                      char *err, size_t errlen);

/* Re-reads g_config.config_path and installs the reloadable settings. */
int config_reload(void);

#endif /* STATSD_CONFIG_H */
