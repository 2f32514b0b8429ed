// The pages' files (web/ in the source tree: the board page and the run
// page), compiled into the binary so that `renju serve --http` and
// `renju trainer --http` need nothing installed beside it.
// The definitions are generated at build time by embed_web_assets.cmake.
#ifndef RENJU_HTTP_WEB_ASSETS_H_
#define RENJU_HTTP_WEB_ASSETS_H_

#include <cstddef>

namespace renju {

struct WebAsset {
  const char* path;          // "/index.html", "/board.js", ...
  const char* content_type;  // "text/html; charset=utf-8", ...
  const unsigned char* bytes;
  size_t size;
};

extern const WebAsset kWebAssets[];
extern const size_t kNumWebAssets;

}  // namespace renju

#endif  // RENJU_HTTP_WEB_ASSETS_H_
