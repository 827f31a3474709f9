/* Disk pressure for the mail_loop bench: an LD_PRELOAD shim that counts every fsync,
 * fdatasync and syncfs of the process it is loaded into and sleeps before each one for as
 * long as a control file says (so the bench turns pressure on and off between measurements
 * without restarting the daemon). It never changes what reaches the disk: the real call
 * follows the sleep. Control file (MAIL_LOOP_SHIM_CTL): u32 sleep in ms, u32 pad, u64 count
 * per slot (MAIL_LOOP_SHIM_SLOT, 0..3). Only a program named MAIL_LOOP_SHIM_ONLY (when set)
 * is counted and slowed, so the bench's helpers (swaks, chown) are not. Without the control
 * file it only forwards. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

struct ctl {
    volatile uint32_t ms;
    uint32_t pad;
    uint64_t count[4];
};

static struct ctl *ctl;
static int slot;

__attribute__((constructor)) static void shim_init(void) {
    const char *p = getenv("MAIL_LOOP_SHIM_CTL");
    if (!p) return;
    const char *only = getenv("MAIL_LOOP_SHIM_ONLY");
    if (only && strcmp(only, program_invocation_short_name) != 0) return;
    int fd = open(p, O_RDWR | O_CLOEXEC);
    if (fd < 0) return;
    void *m = mmap(0, sizeof(struct ctl), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return;
    ctl = m;
    const char *s = getenv("MAIL_LOOP_SHIM_SLOT");
    slot = s ? atoi(s) & 3 : 0;
}

static void pressure(void) {
    if (!ctl) return;
    __atomic_fetch_add(&ctl->count[slot], 1, __ATOMIC_RELAXED);
    uint32_t ms = ctl->ms;
    if (ms) {
        struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
        while (nanosleep(&t, &t) != 0) {}
    }
}

#define WRAP(name)                                                  \
    int name(int fd) {                                              \
        static int (*real)(int);                                    \
        if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, #name);    \
        pressure();                                                 \
        return real(fd);                                            \
    }

WRAP(fsync)
WRAP(fdatasync)
WRAP(syncfs)
