# cmake -DWEB_DIR=... -DSTAGE_DIR=... -DSITE_DIR=... -DMODULE_FILES=a;b;c -DBENCH_FILES=d;e
#       -DTOKENIZERS_DIR=f -P copy_site.cmake
# Stages the site's sources: a fresh copy of web/ (so that files deleted from web/ disappear) with
# the module in embedlab/, the benchmark module in embedlab/bench/ and the tokenizers' data
# (data/, licenses/) beside web/tokenizers/. Then scripts/build-site.mjs bundles the stage into
# the served site.
file(REMOVE_RECURSE ${STAGE_DIR})
if(EXISTS ${WEB_DIR})
  file(COPY ${WEB_DIR}/ DESTINATION ${STAGE_DIR})
endif()
file(COPY ${MODULE_FILES} DESTINATION ${STAGE_DIR}/embedlab)
file(COPY ${BENCH_FILES} DESTINATION ${STAGE_DIR}/embedlab/bench)
file(COPY ${TOKENIZERS_DIR}/ DESTINATION ${STAGE_DIR}/tokenizers)
find_program(NODE NAMES node nodejs REQUIRED)
execute_process(COMMAND ${NODE} ${CMAKE_CURRENT_LIST_DIR}/../scripts/build-site.mjs ${STAGE_DIR} ${SITE_DIR}
                COMMAND_ERROR_IS_FATAL ANY)
