// AddRecordRoutes (records/record_api.h): the routes apart from the JSON
// work, so that the fuzz build reaches RecordsJson and SaveRecordJson
// without httplib.
#include <httplib.h>

#include "http/http_server.h"
#include "records/record_api.h"

namespace renju {

void AddRecordRoutes(httplib::Server& server) {
  server.Post("/api/records",
              [](const httplib::Request& request, httplib::Response& response) {
                const RecordsAnswer answer = RecordsJson(request.body);
                ReplyJson(response, answer.status, answer.json);
              });
  server.Post("/api/records/save",
              [](const httplib::Request& request, httplib::Response& response) {
                const RecordsAnswer answer = SaveRecordJson(request.body);
                ReplyJson(response, answer.status, answer.json);
              });
}

}  // namespace renju
