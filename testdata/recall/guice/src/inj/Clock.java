/* A time source, made by AppModule's @Provides method. */
package inj;

interface Clock {
    long now();
}
