int a_value (void);
