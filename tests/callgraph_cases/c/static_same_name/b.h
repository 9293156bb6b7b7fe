int b_value (void);
