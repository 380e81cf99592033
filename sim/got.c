/* libsimgrid's GOT entries redirected to the driver (got.h). */
#include "got.h"

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct {
  const char *sym;
  void *orig, *hook;
  int found;                  /* libsimgrid seen */
  int patched;                /* its slot now holds hook */
  int find_only;              /* cs_got_find: only locate the slot */
  void **slot;                /* the slot found */
  uintptr_t text_lo, text_hi; /* libsimgrid's executable segment */
  char why[200];              /* else: why not */
} got_patch;

#if defined(__x86_64__)
/* The slot of g->sym among n relocations at rel of type `type`, or NULL. */
static void **find_slot(const struct dl_phdr_info *info, const ElfW(Rela) * rel, size_t n,
                        unsigned type, const ElfW(Sym) * sym, const char *strtab,
                        const char *name) {
  for (size_t i = 0; rel && i < n; i++) {
    if (ELF64_R_TYPE(rel[i].r_info) != type) continue;
    if (strcmp(strtab + sym[ELF64_R_SYM(rel[i].r_info)].st_name, name)) continue;
    return (void **)(info->dlpi_addr + rel[i].r_offset);
  }
  return NULL;
}
#endif

/* dl_iterate_phdr callback: in libsimgrid, finds the JUMP_SLOT (or else the
 * GLOB_DAT) relocation of g->sym and writes g->hook into its slot (in the
 * RELRO segment, so made writable for the write and read-only again after). */
static int patch_object(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  got_patch *g = data;
  if (!info->dlpi_name || !strstr(info->dlpi_name, "libsimgrid.so")) return 0;
  g->found = 1;
#if defined(__x86_64__)
  const ElfW(Dyn) *dyn = NULL;
  uintptr_t relro = 0, relro_end = 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_DYNAMIC) dyn = (const ElfW(Dyn) *)(info->dlpi_addr + ph->p_vaddr);
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
      g->text_lo = info->dlpi_addr + ph->p_vaddr;
      g->text_hi = g->text_lo + ph->p_memsz;
    }
    if (ph->p_type == PT_GNU_RELRO) {
      relro = info->dlpi_addr + ph->p_vaddr;
      relro_end = relro + ph->p_memsz;
    }
  }
  uintptr_t jmprel = 0, rela = 0, symtab = 0, strtab = 0;
  size_t pltrelsz = 0, relasz = 0;
  for (const ElfW(Dyn) *d = dyn; d && d->d_tag != DT_NULL; d++) {
    if (d->d_tag == DT_JMPREL) jmprel = d->d_un.d_ptr;
    if (d->d_tag == DT_PLTRELSZ) pltrelsz = d->d_un.d_val;
    if (d->d_tag == DT_RELA) rela = d->d_un.d_ptr;
    if (d->d_tag == DT_RELASZ) relasz = d->d_un.d_val;
    if (d->d_tag == DT_SYMTAB) symtab = d->d_un.d_ptr;
    if (d->d_tag == DT_STRTAB) strtab = d->d_un.d_ptr;
  }
  if ((!jmprel && !rela) || !symtab || !strtab) {
    snprintf(g->why, sizeof g->why, "%s has no relocations", info->dlpi_name);
    return 1;
  }
  /* glibc relocates these addresses in place on x86-64; not elsewhere */
  if (jmprel && jmprel < info->dlpi_addr) jmprel += info->dlpi_addr;
  if (rela && rela < info->dlpi_addr) rela += info->dlpi_addr;
  if (symtab < info->dlpi_addr) symtab += info->dlpi_addr;
  if (strtab < info->dlpi_addr) strtab += info->dlpi_addr;
  const ElfW(Sym) *sym = (const ElfW(Sym) *)symtab;
  void **slot = find_slot(info, (const ElfW(Rela) *)jmprel, pltrelsz / sizeof(ElfW(Rela)),
                          R_X86_64_JUMP_SLOT, sym, (const char *)strtab, g->sym);
  if (!slot)
    slot = find_slot(info, (const ElfW(Rela) *)rela, relasz / sizeof(ElfW(Rela)), R_X86_64_GLOB_DAT,
                     sym, (const char *)strtab, g->sym);
  if (!slot) {
    snprintf(g->why, sizeof g->why, "%s has no GOT slot for %s", info->dlpi_name, g->sym);
    return 1;
  }
  g->slot = slot;
  if (g->find_only) return 1;
  if (*slot == g->hook) {
    g->patched = 1;
    return 1;
  }
  if (*slot != g->orig) {
    snprintf(g->why, sizeof g->why, "libsimgrid's slot of %s is not bound to it (%p, not %p)",
             g->sym, *slot, g->orig);
    return 1;
  }
  long pg = sysconf(_SC_PAGESIZE);
  uintptr_t page = (uintptr_t)slot & ~(uintptr_t)(pg - 1);
  int ro = (uintptr_t)slot >= relro && (uintptr_t)slot < relro_end;
  if (ro && mprotect((void *)page, (size_t)pg, PROT_READ | PROT_WRITE) != 0) {
    snprintf(g->why, sizeof g->why, "mprotect of libsimgrid's GOT failed");
    return 1;
  }
  *slot = g->hook;
  if (ro) mprotect((void *)page, (size_t)pg, PROT_READ);
  g->patched = 1;
  return 1;
#else
  snprintf(g->why, sizeof g->why, "the GOT hooks are written for x86-64 ELF only");
  return 1;
#endif
}

int cs_got_find(const char *sym, void ***slot, uintptr_t *text_lo, uintptr_t *text_hi, char *why,
                size_t len) {
  got_patch g = {sym, NULL, NULL, 0, 0, 1, NULL, 0, 0, ""};
  dl_iterate_phdr(patch_object, &g);
  if (!g.slot || !g.text_lo) {
    snprintf(why, len, "%s", !g.found ? "libsimgrid.so is not loaded" : *g.why ? g.why : "no text");
    return -1;
  }
  *slot = g.slot;
  *text_lo = g.text_lo;
  *text_hi = g.text_hi;
  return 0;
}

int cs_got_patch(const char *sym, void *orig, void *hook, char *why, size_t len) {
  got_patch g = {sym, orig, hook, 0, 0, 0, NULL, 0, 0, ""};
  dl_iterate_phdr(patch_object, &g);
  if (!g.patched) {
    snprintf(why, len, "%s", g.found ? g.why : "libsimgrid.so is not loaded");
    return -1;
  }
  return 0;
}
