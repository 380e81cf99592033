/* The library's temporaries shared in calls on shared buffers (libtmp.h). */
#include "libtmp.h"

#ifdef SMPI_H
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>

#include "../algos/backend.h"
#include "got.h"

#define NEW_SYM  "_Znam"  /* operator new[](unsigned long) */
#define DEL_SYM  "_ZdaPv" /* operator delete[](void*) */
#define REPL_SYM "_ZNK7simgrid4smpi8ActorExt9replayingEv"
/* The functions whose malloc holds payload: a message's packed copy of a
 * derived datatype (Request::init_buffer, freed by Request::finish_wait),
 * and Datatype::copy's between two derived types. */
static const char *const payload_fn[] = {"_ZN7simgrid4smpi7Request11init_bufferEi",
                                         "_ZN7simgrid4smpi8Datatype4copyEPKviPS1_PviS4_"};
#define NPAYLOAD (sizeof payload_fn / sizeof payload_fn[0])
static uintptr_t payload_lo[NPAYLOAD], payload_hi[NPAYLOAD];

static void *(*orig_new)(size_t);
static void (*orig_del)(void *);
static void *(*orig_malloc)(size_t);
static void (*orig_free)(void *);
static uintptr_t text_lo, text_hi; /* libsimgrid's code */
static void **new_slot, **repl_slot;
static uintptr_t getter[4]; /* smpi_get_tmp_sendbuffer, _recvbuffer */
static int ngetter;

/* One OS process runs every simulated process, one at a time: this state is
 * shared and needs no lock. Per SimGrid actor: inside a call on shared
 * buffers. */
static unsigned char *in_shared;
static size_t n_in_shared;
static int nshared; /* processes inside such a call */
static long handed; /* temporaries handed out shared */

/* The shared temporaries alive: address -> how many processes hold it
 * (processes overlap in the one mapping, so two may hold one address). A
 * real new[] never returns an address inside a shared mapping. */
typedef struct {
  uintptr_t p;
  int n;
} live_entry;
static live_entry *live;
static size_t live_cap, live_n; /* slots, and slots in use (never emptied: n may be 0) */
static long live_held;          /* sum of n */

static size_t live_find(uintptr_t p) {
  size_t i = (p >> 6) * 0x9E3779B97F4A7C15ull % live_cap;
  while (live[i].p && live[i].p != p) i = (i + 1) % live_cap;
  return i;
}
static int live_add(uintptr_t p) {
  if (2 * (live_n + 1) > live_cap) {
    size_t oc = live_cap, nc = 2 * oc;
    live_entry *old = live;
    live = calloc(nc, sizeof *live);
    if (!live) {
      live = old;
      return -1;
    }
    live_cap = nc;
    live_n = 0;
    for (size_t i = 0; i < oc; i++) {
      uintptr_t q = old[i].p;
      int n = old[i].n;
      if (!q || !n) continue; /* dropped: released addresses */
      size_t j = live_find(q);
      live[j].p = q;
      live[j].n = n;
      live_n++;
    }
    free(old);
  }
  size_t i = live_find(p);
  if (!live[i].p) {
    live[i].p = p;
    live_n++;
  }
  live[i].n++;
  live_held++;
  return 0;
}

/* Whether the code at d is a PLT stub that jumps through slot. */
static int plt_through(uintptr_t d, void **slot) {
  if (d < text_lo || d + 16 > text_hi) return 0;
  const unsigned char *c = (const unsigned char *)d;
  if (c[0] == 0xf3 && c[1] == 0x0f && c[2] == 0x1e && c[3] == 0xfa) c += 4; /* endbr64 */
  if (c[0] == 0xf2) c++;                                                    /* bnd */
  if (c[0] != 0xff || c[1] != 0x25) return 0;                               /* jmp *disp(%rip) */
  int32_t disp;
  memcpy(&disp, c + 2, 4);
  return (void **)((uintptr_t)c + 6 + (intptr_t)disp) == slot;
}

static uintptr_t rel_target(const unsigned char *c) { /* of an E8/E9 rel32 at c */
  int32_t rel;
  memcpy(&rel, c + 1, 4);
  return (uintptr_t)c + 5 + (intptr_t)rel;
}

/* Whether a getter begins at c (SimGrid 3.32, smpi_memory.cpp, as built by
 * Debian 12's g++ -O2):
 *   push %rbx; mov %rdi,%rbx; call smpi_process; mov %rax,%rdi;
 *   call ActorExt::replaying@plt; test %al,%al; je L ... L: mov %rbx,%rdi;
 *   pop %rbx; jmp operator new[]@plt
 * that is `if (not smpi_process()->replaying()) return new unsigned char[size];`. */
static int is_getter(const unsigned char *c) {
  static const unsigned char head[] = {0x53, 0x48, 0x89, 0xfb, 0xe8};
  if (memcmp(c, head, sizeof head) || memcmp(c + 9, "\x48\x89\xc7\xe8", 4) ||
      !plt_through(rel_target(c + 12), repl_slot) || memcmp(c + 17, "\x84\xc0\x74", 3))
    return 0;
  const unsigned char *l = c + 21 + c[20];
  if ((uintptr_t)l + 9 > text_hi || memcmp(l, "\x48\x89\xdf\x5b\xe9", 5)) return 0;
  return plt_through(rel_target(l + 4), new_slot);
}

static int caller_in_shared(void) {
  aid_t id = sg_actor_self_get_pid();
  return id >= 0 && (size_t)id < n_in_shared && in_shared[id];
}

/* Whether the new[] returning to ra was called by a getter: the getter
 * tail-calls new[], so ra follows the collective's `call getter`. */
static int from_getter(uintptr_t ra) {
  if (ra < text_lo + 5 || ra > text_hi) return 0;
  const unsigned char *c = (const unsigned char *)ra - 5;
  if (c[0] != 0xe8) return 0;
  uintptr_t t = rel_target(c);
  for (int i = 0; i < ngetter; i++)
    if (t == getter[i]) return 1;
  return 0;
}

/* A shared temporary for the caller, or NULL. */
static void *shared_tmp(size_t size) {
  void *b = cs_backend_shared_tmp(size);
  if (b && live_add((uintptr_t)b) == 0) {
    handed++;
    return b;
  }
  if (b) cs_backend_shared_tmp_free(b);
  return NULL;
}

/* Whether p is a shared temporary (then released). */
static int released(void *p) {
  if (!p || live_held <= 0) return 0;
  size_t i = live_find((uintptr_t)p);
  if (!live[i].p || live[i].n <= 0) return 0;
  live[i].n--;
  live_held--;
  cs_backend_shared_tmp_free(p);
  return 1;
}

static void *new_hook(size_t size) {
  if (nshared > 0 && from_getter((uintptr_t)__builtin_return_address(0)) && caller_in_shared()) {
    void *b = shared_tmp(size);
    if (b) return b;
  }
  return orig_new(size);
}

static void del_hook(void *p) {
  if (!released(p)) orig_del(p);
}

static void *malloc_hook(size_t size) {
  if (nshared > 0) {
    uintptr_t ra = (uintptr_t)__builtin_return_address(0);
    for (size_t i = 0; i < NPAYLOAD; i++)
      if (ra >= payload_lo[i] && ra < payload_hi[i]) {
        void *b = caller_in_shared() ? shared_tmp(size) : NULL;
        return b ? b : orig_malloc(size);
      }
  }
  return orig_malloc(size);
}

static void free_hook(void *p) {
  if (!released(p)) orig_free(p);
}

int cs_libtmp_install(char *why, size_t len) {
  static int done, failed;
  if (done) return 0;
  if (failed) {
    snprintf(why, len, "not installed");
    return -1;
  }
  failed = 1; /* until the end */
  const char *e = getenv("COLLSIM_LIB_TMP");
  if (e && !strcmp(e, "real")) {
    snprintf(why, len, "COLLSIM_LIB_TMP=real");
    return -1;
  }
  orig_new = (void *(*)(size_t))dlsym(RTLD_DEFAULT, NEW_SYM);
  orig_del = (void (*)(void *))dlsym(RTLD_DEFAULT, DEL_SYM);
  orig_malloc = (void *(*)(size_t))dlsym(RTLD_DEFAULT, "malloc");
  orig_free = (void (*)(void *))dlsym(RTLD_DEFAULT, "free");
  if (!orig_new || !orig_del || !orig_malloc || !orig_free) {
    snprintf(why, len, "operator new[], delete[], malloc or free not found");
    return -1;
  }
  for (size_t i = 0; i < NPAYLOAD; i++) {
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    void *f = dlsym(RTLD_DEFAULT, payload_fn[i]);
    if (!f || !dladdr1(f, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym || !sym->st_size) {
      snprintf(why, len, "%s not found in libsimgrid", payload_fn[i]);
      return -1;
    }
    payload_lo[i] = (uintptr_t)f;
    payload_hi[i] = (uintptr_t)f + sym->st_size;
  }
  uintptr_t lo, hi;
  if (cs_got_find(NEW_SYM, &new_slot, &text_lo, &text_hi, why, len) ||
      cs_got_find(REPL_SYM, &repl_slot, &lo, &hi, why, len))
    return -1;
  /* the getters: every place in libsimgrid's code where their instructions begin */
  ngetter = 0;
  for (uintptr_t a = text_lo; a + 64 < text_hi; a++) {
    const unsigned char *c = (const unsigned char *)a;
    if (c[0] != 0x53 || c[1] != 0x48 || !is_getter(c)) continue;
    if (ngetter == (int)(sizeof getter / sizeof getter[0])) break;
    getter[ngetter++] = a;
  }
  if (ngetter != 2) {
    snprintf(why, len,
             "found %d functions shaped as SimGrid 3.32's smpi_get_tmp_sendbuffer and "
             "recvbuffer, not 2",
             ngetter);
    return -1;
  }
  int p;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  n_in_shared = (size_t)p + 64;
  in_shared = calloc(n_in_shared, 1);
  live_cap = 1024;
  live = calloc(live_cap, sizeof *live);
  if (!in_shared || !live) {
    snprintf(why, len, "out of memory");
    return -1;
  }
  /* the releases first: once new[] and malloc hand out shared ranges, they come back */
  if (cs_got_patch(DEL_SYM, (void *)orig_del, (void *)del_hook, why, len) ||
      cs_got_patch("free", (void *)orig_free, (void *)free_hook, why, len) ||
      cs_got_patch(NEW_SYM, (void *)orig_new, (void *)new_hook, why, len) ||
      cs_got_patch("malloc", (void *)orig_malloc, (void *)malloc_hook, why, len))
    return -1;
  failed = 0;
  done = 1;
  return 0;
}

void cs_libtmp_shared(int on) {
  if (!in_shared) return;
  aid_t id = sg_actor_self_get_pid();
  if (id < 0) return;
  if ((size_t)id >= n_in_shared) {
    size_t n = (size_t)id * 2 + 64;
    unsigned char *v = realloc(in_shared, n);
    if (!v) return; /* stays out: real temporaries */
    memset(v + n_in_shared, 0, n - n_in_shared);
    in_shared = v;
    n_in_shared = n;
  }
  if (in_shared[id] != (on != 0)) {
    in_shared[id] = on != 0;
    nshared += on ? 1 : -1;
  }
}

long cs_libtmp_count(void) { return handed; }
#endif
