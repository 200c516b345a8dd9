#include "embedlab/routes.hpp"

#include "embedlab/lookup.hpp"
#include "embedlab/onehot.hpp"
#include "embedlab/streamed.hpp"

namespace embedlab {

Routes both_routes(const Matrix& weight, const Ids& ids, const Limits& limits) {
  Routes routes;
  routes.lookup = lookup(weight, ids, limits);
  routes.product = onehot_product(one_hot(ids, weight.rows(), limits), weight, limits);
  routes.comparison = compare(routes.lookup, routes.product);
  return routes;
}

Routes both_routes(const Table& weight, const Ids& ids, const Limits& limits) {
  Routes routes;
  routes.lookup = lookup(weight, ids, limits);
  StreamedProduct product(weight, one_hot_encoding(ids, weight.rows(), limits), {}, limits);
  product.run();
  routes.product = product.result();
  routes.comparison = compare(routes.lookup, routes.product);
  return routes;
}

}  // namespace embedlab
