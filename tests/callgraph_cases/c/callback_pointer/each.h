typedef void (*item_fn) (int);
typedef void (*hook_fn) (void);

void for_each (const int *xs, int n, item_fn fn);
void set_done_hook (hook_fn h);
void finish (void);
