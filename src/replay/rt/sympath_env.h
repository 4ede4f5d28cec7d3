/* sympath_env.h: the replay library's view of src/proto/env.h in the source tree; in lib/, where the library is compiled into programs, env.h itself is copied under this name. */
#include "../../proto/env.h"
