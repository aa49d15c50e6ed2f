#include "MallocCounter.h"

#include <errno.h>
#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define LEAMOJI_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LEAMOJI_SANITIZED 1
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(LEAMOJI_SANITIZED)

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static _Thread_local int counting;
static _Thread_local long counted;

static inline void note(void) {
  if (counting) counted += 1;
}

void *malloc(size_t n) {
  note();
  return __libc_malloc(n);
}

void *calloc(size_t count, size_t n) {
  note();
  return __libc_calloc(count, n);
}

void *realloc(void *p, size_t n) {
  note();
  return __libc_realloc(p, n);
}

void *memalign(size_t alignment, size_t n) {
  note();
  return __libc_memalign(alignment, n);
}

void *aligned_alloc(size_t alignment, size_t n) {
  note();
  return __libc_memalign(alignment, n);
}

int posix_memalign(void **out, size_t alignment, size_t n) {
  note();
  if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
  void *p = __libc_memalign(alignment, n);
  if (p == NULL) return ENOMEM;
  *out = p;
  return 0;
}

int leamoji_malloc_counter_available(void) { return 1; }

void leamoji_malloc_counter_start(void) {
  counted = 0;
  counting = 1;
}

long leamoji_malloc_counter_stop(void) {
  counting = 0;
  return counted;
}

#else

int leamoji_malloc_counter_available(void) { return 0; }
void leamoji_malloc_counter_start(void) {}
long leamoji_malloc_counter_stop(void) { return 0; }

#endif
