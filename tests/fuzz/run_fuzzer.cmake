# Runs one libFuzzer target for a bounded time on a fresh copy of its seed corpus: libFuzzer
# writes the inputs it finds into the corpus folder, and the committed seeds must stay as they are.
# cmake -DFUZZER=exe -DCORPUS=dir -DDICT=file -DWORK=dir -DSECONDS=n -P run_fuzzer.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/artifacts)
file(COPY ${CORPUS}/ DESTINATION ${WORK}/corpus)
execute_process(
  COMMAND ${FUZZER} ${WORK}/corpus -dict=${DICT} -max_total_time=${SECONDS} -rss_limit_mb=2048
          -timeout=10 -print_final_stats=1 -artifact_prefix=${WORK}/artifacts/
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (${result}); the input that broke it is in ${WORK}/artifacts/")
endif()
