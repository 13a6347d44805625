/*
 * HiddenSub declares open() with the same name and descriptor as the
 * package-private virt.other.Hidden.open, but in another package: it does not
 * override it (JVMS 5.4.5), so a call of Hidden.open never selects HiddenSub.open
 * and a call of HiddenSub.open is a different method.
 */
package virt;

import virt.other.Hidden;

class HiddenSub extends Hidden {
    HiddenSub() {
    }

    public void open() { // @reachable
    }
}
