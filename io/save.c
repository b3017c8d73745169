/*
** Whole-or-nothing text files (io/save.h).
*/
#include "save.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes text to f and closes it, whatever happens; 0 or an errno. */
static int write_close(FILE *f, const char *text, size_t len)
{
    int e = 0;
    if ((len && fwrite(text, 1, len, f) != len) || fflush(f) != 0)
        e = errno ? errno : EIO;
    if (fclose(f) != 0 && e == 0)
        e = errno ? errno : EIO;
    return e;
}

int lad_save_text(const char *path, const char *text, size_t len, lad_err *err)
{
    struct stat st;
    int in_place = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
    char tmp[4096];
    int e = 0;
    if (!in_place &&
        snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid()) >= (int)sizeof tmp)
        e = ENAMETOOLONG;
    FILE *f = NULL;
    if (e == 0) {
        int fd = in_place ? open(path, O_WRONLY | O_TRUNC)
                          : open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 || (f = fdopen(fd, "w")) == NULL) {
            e = errno;
            if (fd >= 0)
                close(fd);
        }
    }
    if (f != NULL)
        e = write_close(f, text, len);
    if (e == 0 && !in_place && rename(tmp, path) != 0)
        e = errno;
    if (e != 0 && f != NULL && !in_place)
        remove(tmp);
    if (e != 0)
        return lad_errf(err, LAD_EDATA, "cannot write '%s': %s", path, strerror(e));
    return LAD_OK;
}
