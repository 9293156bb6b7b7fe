#include <stdio.h>
#include <stdlib.h>

#include "vec.h"

/* Parses "x,y" into *out; returns 1 on success and 0 on malformed input. */
static int parse_point(const char *text, Point *out)
{
    char trailing;
    return sscanf(text, "%lf,%lf%c", &out->x, &out->y, &trailing) == 2;
}

static void print_points(const PointVec *v)
{
    for (size_t i = 0; i < VEC_LEN(v); i++) {
        const Point *p = vec_get(v, i);
        printf("  (%.2f, %.2f)\n", p->x, p->y);
    }
}

int main(int argc, char **argv)
{
    PointVec points;
    vec_init(&points);

    for (int i = 1; i < argc; i++) {
        Point p;
        if (!parse_point(argv[i], &p)) {
            fprintf(stderr, "skipping malformed point '%s'\n", argv[i]);
            continue;
        }
        if (vec_push(&points, p) != 0) {
            fprintf(stderr, "out of memory\n");
            vec_free(&points);
            return EXIT_FAILURE;
        }
    }

    vec_sort(&points, point_cmp_by_norm);
    printf("%zu points, nearest to origin first:\n", VEC_LEN(&points));
    print_points(&points);

    Point c = vec_centroid(&points);
    printf("centroid: (%.3f, %.3f)\n", c.x, c.y);

    vec_free(&points);
    return EXIT_SUCCESS;
}
