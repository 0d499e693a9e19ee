// SPDX-License-Identifier: GPL-2.0-only
/*
 * Growing arrays with overflow checks.  See alloc.h.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

int cfsr_alloc_grow(void **ptr, size_t nr, size_t *alloc, size_t size)
{
	size_t want;
	void *p;

	if (nr <= *alloc)
		return 0;
	want = *alloc < 16 ? 16 : *alloc;
	while (want < nr) {
		if (want > SIZE_MAX / 2)
			return -1;
		want *= 2;
	}
	if (size && want > SIZE_MAX / size)
		return -1;
	p = realloc(*ptr, want * size);
	if (!p)
		return -1;
	memset((char *)p + *alloc * size, 0, (want - *alloc) * size);
	*ptr = p;
	*alloc = want;
	return 0;
}
