/* intl.c — <libintl.h>: message catalogues (gettext and the `_()` of translated programs).
 *
 * A translation is a string of the catalogue, never written once loaded, or the message itself:
 * each lookup reads its message and domain and returns the message (a pointer into what the
 * caller gave, which covers reading a catalogue string too). glibc guards the catalogues and the
 * current domain with its own lock, so binding and choosing a domain touch no modelled memory;
 * they return strings the library keeps, which nobody writes. */

static const char intl_domain_name[] = "messages";

char *gettext(const char *msgid)
{
    __locksmith_read(msgid);
    return (char *)msgid;
}

char *dgettext(const char *domain, const char *msgid)
{
    if (domain != NULL)
        __locksmith_read(domain);
    __locksmith_read(msgid);
    return (char *)msgid;
}

char *dcgettext(const char *domain, const char *msgid, int category)
{
    if (domain != NULL)
        __locksmith_read(domain);
    __locksmith_read(msgid);
    return (char *)msgid;
}

char *ngettext(const char *msgid, const char *plural, unsigned long n)
{
    __locksmith_read(msgid);
    __locksmith_read(plural);
    return (char *)(n == 1 ? msgid : plural);
}

char *dngettext(const char *domain, const char *msgid, const char *plural, unsigned long n)
{
    if (domain != NULL)
        __locksmith_read(domain);
    return ngettext(msgid, plural, n);
}

char *dcngettext(const char *domain, const char *msgid, const char *plural, unsigned long n,
                 int category)
{
    return dngettext(domain, msgid, plural, n);
}

char *textdomain(const char *domain)
{
    if (domain != NULL)
        __locksmith_read(domain);
    return (char *)intl_domain_name;
}

char *bindtextdomain(const char *domain, const char *dir)
{
    __locksmith_read(domain);
    if (dir != NULL)
        __locksmith_read(dir);
    return (char *)intl_domain_name;
}

char *bind_textdomain_codeset(const char *domain, const char *codeset)
{
    __locksmith_read(domain);
    if (codeset != NULL)
        __locksmith_read(codeset);
    return (char *)intl_domain_name;
}
