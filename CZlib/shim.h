/*
 * zlib for reading .xlsx workbooks (zip archives of XML parts), behind its own
 * system-library target as the project's other C library is. Debian's zlib1g-dev.
 *
 * inflateInit2 is a macro (it passes the library's version and the stream's size);
 * Swift cannot import it, so it is wrapped here.
 */
#include <zlib.h>

static inline int shim_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
