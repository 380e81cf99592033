/* Redirecting one of libsimgrid's calls to a function of the driver.
 *
 * smpirun loads the driver with dlopen(RTLD_LOCAL) and libsimgrid is linked
 * with BIND_NOW, so a definition in the driver never interposes one of
 * libsimgrid's symbols: its calls between its own translation units go
 * through its PLT, whose slots were bound to its own definitions before the
 * driver was loaded. cs_got_patch rewrites such a slot (libsimgrid's GOT
 * entry of the symbol: a JUMP_SLOT, or the GLOB_DAT entry that its PLT
 * jumps through when the function's address is also taken) so that those
 * calls reach hook; the hook forwards to the original where it has nothing
 * to add. Used by libcharge.c (Datatype::copy), libsetup.c (Comm::init_smp,
 * allgather__ring) and libtmp.c (operator new[], delete[], malloc and free). x86-64 ELF only. */
#ifndef CS_GOT_H
#define CS_GOT_H

#include <stddef.h>
#include <stdint.h>

/* Points libsimgrid's GOT entry of the mangled symbol sym, which must hold
 * orig (libsimgrid's own definition), at hook. 0 (also when it already
 * holds hook), or -1 with the reason in why. One OS process runs every
 * simulated process: a slot is patched once for all. */
int cs_got_patch(const char *sym, void *orig, void *hook, char *why, size_t len);

/* Where libsimgrid's GOT entry of sym is (*slot) and its executable segment
 * [*text_lo, *text_hi): 0, or -1 with the reason in why. Changes nothing. */
int cs_got_find(const char *sym, void ***slot, uintptr_t *text_lo, uintptr_t *text_hi, char *why,
                size_t len);

#endif
