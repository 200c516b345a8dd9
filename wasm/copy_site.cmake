# cmake -DWEB_DIR=... -DSITE_DIR=... -DMODULE_FILES=a;b;c -DBENCH_FILES=d;e -DTOKENIZERS_DIR=f
#       -P copy_site.cmake
# A fresh copy of web/ (whatever exists of it) with the module in embedlab/, the benchmark
# module, which the page's Benchmark panel loads, in embedlab/bench/, and the built tokenizers
# (vendor/, data/, licenses/) beside web/tokenizers/, so that files deleted from web/ disappear
# from the site too.
file(REMOVE_RECURSE ${SITE_DIR})
if(EXISTS ${WEB_DIR})
  file(COPY ${WEB_DIR}/ DESTINATION ${SITE_DIR})
endif()
file(COPY ${MODULE_FILES} DESTINATION ${SITE_DIR}/embedlab)
file(COPY ${BENCH_FILES} DESTINATION ${SITE_DIR}/embedlab/bench)
file(COPY ${TOKENIZERS_DIR}/ DESTINATION ${SITE_DIR}/tokenizers)
# The page's own modules bundled into app.mjs, one round trip instead of a chain of imports.
find_program(NODE NAMES node nodejs REQUIRED)
execute_process(COMMAND ${NODE} ${CMAKE_CURRENT_LIST_DIR}/../scripts/bundle-page.mjs ${SITE_DIR}
                COMMAND_ERROR_IS_FATAL ANY)
