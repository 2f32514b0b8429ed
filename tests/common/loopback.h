// What the tests that start real processes on loopback share: a port to
// give a server, and a patient poll for what a process shows only in its
// files, logs or answers.
#ifndef RENJU_TESTS_COMMON_LOOPBACK_H_
#define RENJU_TESTS_COMMON_LOOPBACK_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <thread>

namespace renju::testing {

// A loopback port that was free a moment ago, for a process that prints no
// address (or one restarted on the address its clients already know).
inline int FreeLoopbackPort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
  socklen_t length = sizeof(address);
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  close(fd);
  return ntohs(address.sin_port);
}

// Asks `condition` every 200 ms until it holds or `seconds` have passed
// (minutes that a working process never needs: a limit against hangs, not
// a bet on speed); its last answer.
inline bool PollUntil(const std::function<bool()>& condition, int seconds) {
  const auto end =
      std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return condition();
}

}  // namespace renju::testing

#endif  // RENJU_TESTS_COMMON_LOOPBACK_H_
