#ifndef CNATIVE_VEC_H
#define CNATIVE_VEC_H

#include <stddef.h>

/* Smallest capacity allocated by vec_push on the first append. */
#define VEC_MIN_CAPACITY 4

/* Number of elements currently stored in a vector. */
#define VEC_LEN(v) ((v)->len)

/** A point in the plane. */
typedef struct Point {
    double x;
    double y;
} Point;

/** A growable array of points that owns its storage. */
struct PointVec {
    Point *data;
    size_t len;
    size_t cap;
};

typedef struct PointVec PointVec;

/** Comparison callback used by vec_sort; returns <0, 0 or >0 like strcmp. */
typedef int (*point_cmp_fn)(const Point *a, const Point *b);

/**
 * Initialises an empty vector without allocating.
 * Every initialised vector must eventually be passed to vec_free().
 */
void vec_init(PointVec *v);

/** Releases the storage owned by v and resets it to the empty state. */
void vec_free(PointVec *v);

/**
 * Appends p to the end of v, growing the buffer when it is full.
 * Returns 0 on success and -1 if memory could not be allocated.
 */
int vec_push(PointVec *v, Point p);

/** Returns a pointer to element i, or NULL when i is out of range. */
Point *vec_get(const PointVec *v, size_t i);

/** Sorts the points of v in place using cmp. */
void vec_sort(PointVec *v, point_cmp_fn cmp);

/** Returns the centroid of all points, or the origin for an empty vector. */
Point vec_centroid(const PointVec *v);

double point_distance(Point a, Point b);

/** Orders points by distance from the origin; usable as a point_cmp_fn. */
int point_cmp_by_norm(const Point *a, const Point *b);

#endif /* CNATIVE_VEC_H */
