#include "embedlab/routes.hpp"

#include "embedlab/lookup.hpp"
#include "embedlab/onehot.hpp"

namespace embedlab {

Routes both_routes(const Matrix& weight, const Ids& ids, const Limits& limits) {
  Routes routes;
  routes.lookup = lookup(weight, ids, limits);
  routes.product = onehot_product(one_hot(ids, weight.rows(), limits), weight, limits);
  routes.comparison = compare(routes.lookup, routes.product);
  return routes;
}

}  // namespace embedlab
