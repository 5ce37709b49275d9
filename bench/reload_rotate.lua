-- wrk script for bench/latency_bench.py --reload-under-load: one wrk, several pages in turn.
--
--   wrk -t2 -c8 -d3600s --latency -s bench/reload_rotate.lua http://127.0.0.1:PORT -- /paper/x /code/y /search?q=z
--
-- Each connection asks for the paths after "--" in rotation (threads start at different
-- places). Every response's status code is counted, and done() prints one line
-- "STATUS 200=1234 301=5 ..." summed over the threads, so redirects (which wrk counts as
-- successes) and errors show apart from 200s.

-- Globals, not locals: done() reads each thread's counts with thread:get, which sees globals only.
paths = {}
counter = 0
statuses = {}
threads = {}

function setup(thread)
   thread:set("id", #threads)
   table.insert(threads, thread)
end

function init(args)
   for _, arg in ipairs(args) do
      if string.sub(arg, 1, 1) == "/" then
         table.insert(paths, arg)
      end
   end
   if #paths == 0 then
      paths = { "/" }
   end
   counter = (id or 0) % #paths
end

function request()
   counter = counter % #paths + 1
   return wrk.format("GET", paths[counter])
end

function response(status, headers, body)
   statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
   local total = {}
   for _, thread in ipairs(threads) do
      local counts = thread:get("statuses") or {}
      for status, n in pairs(counts) do
         total[status] = (total[status] or 0) + n
      end
   end
   io.write("STATUS")
   for status, n in pairs(total) do
      io.write(string.format(" %d=%d", status, n))
   end
   io.write("\n")
end
