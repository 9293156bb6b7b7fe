#include "vec.h"

#include <math.h>
#include <stdlib.h>

/* Doubles the capacity of v (or allocates VEC_MIN_CAPACITY slots). */
static int vec_grow(PointVec *v)
{
    size_t new_cap = v->cap ? v->cap * 2 : VEC_MIN_CAPACITY;
    Point *data = realloc(v->data, new_cap * sizeof *data);
    if (data == NULL) {
        return -1;
    }
    v->data = data;
    v->cap = new_cap;
    return 0;
}

void vec_init(PointVec *v)
{
    v->data = NULL;
    v->len = 0;
    v->cap = 0;
}

void vec_free(PointVec *v)
{
    free(v->data);
    vec_init(v);
}

int vec_push(PointVec *v, Point p)
{
    if (v->len == v->cap && vec_grow(v) != 0) {
        return -1;
    }
    v->data[v->len++] = p;
    return 0;
}

Point *vec_get(const PointVec *v, size_t i)
{
    return i < v->len ? &v->data[i] : NULL;
}

/* Insertion sort: the vectors in this program are tiny and often nearly sorted. */
void vec_sort(PointVec *v, point_cmp_fn cmp)
{
    for (size_t i = 1; i < v->len; i++) {
        Point key = v->data[i];
        size_t j = i;
        while (j > 0 && cmp(&v->data[j - 1], &key) > 0) {
            v->data[j] = v->data[j - 1];
            j--;
        }
        v->data[j] = key;
    }
}

Point vec_centroid(const PointVec *v)
{
    Point c = {0.0, 0.0};
    if (VEC_LEN(v) == 0) {
        return c;
    }
    for (size_t i = 0; i < v->len; i++) {
        c.x += v->data[i].x;
        c.y += v->data[i].y;
    }
    c.x /= (double)v->len;
    c.y /= (double)v->len;
    return c;
}

double point_distance(Point a, Point b)
{
    return hypot(a.x - b.x, a.y - b.y);
}

int point_cmp_by_norm(const Point *a, const Point *b)
{
    static const Point origin = {0.0, 0.0};
    double da = point_distance(*a, origin);
    double db = point_distance(*b, origin);
    return (da > db) - (da < db);
}
