// The Gomocup protocol engine side (`renju gomocup`, pbrain-renju): the
// input is what a manager writes to the engine's stdin. It goes through the
// real line reader (GomocupProtocol::Run on an in-memory file: the reader
// thread, the command handlers, the per-move watchdog) with the tactical
// brain, which answers at once. Every reply must be one line, and the
// session must end cleanly at END or the end of the input.
#include <sys/mman.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "gomocup/gomocup_protocol.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace renju;
  const int fd = memfd_create("gomocup-input", 0);
  RENJU_CHECK(fd >= 0);
  RENJU_CHECK(write(fd, data, size) == static_cast<ssize_t>(size));
  RENJU_CHECK(lseek(fd, 0, SEEK_SET) == 0);
  GomocupProtocol protocol(std::make_unique<TacticalBrain>(/*seed=*/1),
                           GomocupOptions{});
  const absl::Status status = protocol.Run(fd, [](absl::string_view line) {
    RENJU_CHECK(line.find('\n') == absl::string_view::npos) << line;
    return true;
  });
  RENJU_CHECK(status.ok()) << status.message();
  close(fd);
  return 0;
}
