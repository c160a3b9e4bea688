/*
 * The only C in survey: it exposes ncursesw to Swift, and nothing else.
 *
 * Wide-character curses (get_wch, cchar_t, setcchar, wadd_wch, KEY_CODE_YES, KEY_RESIZE)
 * is only declared when NCURSES_WIDECHAR is 1, so it is defined before the include.
 *
 * Swift cannot import function-like macros (COLOR_PAIR, the A_* attributes, BUTTON1_*)
 * and Swift 6 rejects curses' mutable globals (stdscr, LINES, COLS), so each is wrapped in
 * a tiny static inline function here. Add a getter when Swift needs one; put no logic here.
 */
#ifndef SURVEY_CNCURSES_SHIM_H
#define SURVEY_CNCURSES_SHIM_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif

/* Mutable globals, read through getters. */
static inline WINDOW *shim_stdscr(void) { return stdscr; }
static inline int shim_lines(void) { return LINES; }
static inline int shim_cols(void) { return COLS; }
static inline int shim_color_pairs(void) { return COLOR_PAIRS; }

/* Attribute and colour-pair macros. */
static inline attr_t shim_color_pair(short pair) { return (attr_t)COLOR_PAIR(pair); }
static inline attr_t shim_attr_normal(void) { return (attr_t)A_NORMAL; }
static inline attr_t shim_attr_bold(void) { return (attr_t)A_BOLD; }
static inline attr_t shim_attr_reverse(void) { return (attr_t)A_REVERSE; }
static inline attr_t shim_attr_underline(void) { return (attr_t)A_UNDERLINE; }
static inline attr_t shim_attr_dim(void) { return (attr_t)A_DIM; }

/*
 * setupterm is declared in <term.h>, whose capability macros (lines, columns, buttons, ...)
 * would clash with ordinary Swift names; declare the one function needed (the terminal check
 * reads the entry before curses takes the screen).
 */
extern int setupterm(const char *term, int filedes, int *errret);

/*
 * glibc's <wchar.h> declares wcwidth only for some feature macros, which Swift's Glibc module
 * does not set; declared here so the terminal can ask the width curses itself will use.
 */
extern int wcwidth(wchar_t c);

/* Mouse event masks. */
static inline mmask_t shim_button1_pressed(void) { return (mmask_t)BUTTON1_PRESSED; }
static inline mmask_t shim_button1_released(void) { return (mmask_t)BUTTON1_RELEASED; }
static inline mmask_t shim_button1_clicked(void) { return (mmask_t)BUTTON1_CLICKED; }
/* The wheel: xterm's mouse protocol reports it as buttons 4 (up) and 5 (down). */
static inline mmask_t shim_button4_pressed(void) { return (mmask_t)BUTTON4_PRESSED; }
static inline mmask_t shim_button5_pressed(void) { return (mmask_t)BUTTON5_PRESSED; }
static inline mmask_t shim_all_mouse_events(void) { return (mmask_t)ALL_MOUSE_EVENTS; }

/* The C library's standard streams are mutable globals, which Swift 6 refuses to read. */
static inline FILE *shim_stdin(void) { return stdin; }
static inline FILE *shim_stdout(void) { return stdout; }
static inline FILE *shim_stderr(void) { return stderr; }

#endif
