/* paths.c: where builds find sympath's runtime files (libsympath-rt.a, bitcode, replay library) and sympath.h. */
#include <stdlib.h>

#include "instrument/instrument.h"
#include "proto/env.h"

const char *instrument_lib_dir(void)
{
    const char *e = getenv(SYMPATH_ENV_LIB_DIR);
    return e && *e ? e : SYMPATH_LIB_DIR;
}

const char *instrument_include_dir(void)
{
    const char *e = getenv(SYMPATH_ENV_INCLUDE_DIR);
    return e && *e ? e : SYMPATH_INCLUDE_DIR;
}
