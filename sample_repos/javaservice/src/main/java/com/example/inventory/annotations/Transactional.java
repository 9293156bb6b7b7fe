package com.example.inventory.annotations;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that a service method must run inside a single unit of work.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Transactional {

    /** Whether the method only reads data. */
    boolean readOnly() default false;

    int timeoutSeconds() default 30;
}
