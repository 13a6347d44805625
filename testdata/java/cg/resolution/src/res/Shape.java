/*
 * Resolution test program (levels 3-5 of assumption-levels.md): the shapes that
 * reflective code creates. Shape has two concrete implementations; Hidden is a
 * Shape too but nothing names it, so only the cast (Correct-Cast) can reach it.
 */
package res;

public interface Shape {
    double area();
}
