// Cairo and Pango (Debian's libcairo2-dev and libpango1.0-dev), for ChatVideo's frames only.
#include <cairo.h>
#include <pango/pangocairo.h>
