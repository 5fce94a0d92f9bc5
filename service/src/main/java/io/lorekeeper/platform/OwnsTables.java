package io.lorekeeper.platform;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The database tables a module owns, declared on the module's {@code package-info}: only that
 * module's code reads or writes them; other modules go through its public API or react to its
 * events. Every table the migrations create has exactly one owner ({@code TableOwnershipTest}
 * checks both), so a new table cannot go unowned and a query on another module's table fails the
 * build naming the class, the table and its owner.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PACKAGE)
public @interface OwnsTables {

    /** Table names as the migrations create them. */
    String[] value();
}
