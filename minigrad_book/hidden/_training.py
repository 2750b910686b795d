"""The three-line training loop that the hidden tests of chapters 12 and 14 compare a learner's loop with."""


def losses(model, X, y, steps, optimizer, loss_fn):
    """Train `model` for `steps` full-batch steps (zero_grad, backward, step); return each step's loss."""
    history = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        history.append(loss.item())
    return history
