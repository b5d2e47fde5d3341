#ifndef AGENTOS_TERMIOS_H
#define AGENTOS_TERMIOS_H
/* No terminal control in the VM: tcgetattr fails with ENOTTY. */
typedef unsigned int tcflag_t;
typedef unsigned char cc_t;
typedef unsigned int speed_t;
#define NCCS 32
struct termios {
  tcflag_t c_iflag, c_oflag, c_cflag, c_lflag;
  cc_t c_line;
  cc_t c_cc[NCCS];
};
#define ECHO 0000010
#define ICANON 0000002
#define ISIG 0000001
#define VMIN 6
#define VTIME 5
#define TCSANOW 0
#define TCSAFLUSH 2
int tcgetattr(int, struct termios *);
int tcsetattr(int, int, const struct termios *);
#endif
