# WGAN-GP training steps, from Aladdin Persson's "Machine-Learning-Collection" (the WGAN-GP of his GAN videos):
#   https://github.com/aladdinpersson/Machine-Learning-Collection/tree/master/ML/Pytorch/GANs/4.%20WGAN-GP
#   gradient_penalty is utils.py's, verbatim; the loop is train.py's critic and generator steps.
# Changes, and why:
# - No downloads, no GPU, no RNG: MNIST, DataLoader, torchvision, tensorboard and checkpoints are gone. The one
#   batch of "images" (4 of 1x2x2), the noise and the interpolation weights alpha are fixed numbers written as
#   Python lists (alpha replaces `torch.rand((BATCH_SIZE, 1, 1, 1))`), because minigrad's RNG does not
#   reproduce torch's.
# - model.py's convolutional Discriminator and Generator become two small MLPs of the same roles (minigrad has
#   no convolutions); initialize_weights fills every parameter with fixed numbers instead of nn.init.normal_.
# - Sizes: one epoch of one batch, CRITIC_ITERATIONS = 3 (three Adam steps of the critic, then one of the
#   generator); the learning rate, betas and LAMBDA_GP are train.py's.
# - Printing: every critic step prints its loss and penalty to 5 significant digits, the batch line of train.py
#   is printed for this (only) batch with 5 significant digits, and at the end the sum of each parameter.
import math

import torch
import torch.nn as nn
import torch.optim as optim


def gradient_penalty(critic, real, fake, device="cpu"):
    BATCH_SIZE, C, H, W = real.shape
    alpha = ALPHA.repeat(1, C, H, W).to(device)
    interpolated_images = real * alpha + fake * (1 - alpha)

    # Calculate critic scores
    mixed_scores = critic(interpolated_images)

    # Take the gradient of the scores with respect to the images
    gradient = torch.autograd.grad(
        inputs=interpolated_images,
        outputs=mixed_scores,
        grad_outputs=torch.ones_like(mixed_scores),
        create_graph=True,
        retain_graph=True,
    )[0]
    gradient = gradient.view(gradient.shape[0], -1)
    gradient_norm = gradient.norm(2, dim=1)
    gradient_penalty = torch.mean((gradient_norm - 1) ** 2)
    return gradient_penalty


class Discriminator(nn.Module):
    def __init__(self, channels_img, features_d):
        super().__init__()
        self.disc = nn.Sequential(
            nn.Flatten(),
            nn.Linear(channels_img * IMAGE_SIZE * IMAGE_SIZE, features_d),
            nn.Tanh(),
            nn.Linear(features_d, features_d),
            nn.Tanh(),
            nn.Linear(features_d, 1),
        )

    def forward(self, x):
        return self.disc(x)


class Generator(nn.Module):
    def __init__(self, channels_noise, channels_img, features_g):
        super().__init__()
        self.net = nn.Sequential(
            nn.Flatten(),
            nn.Linear(channels_noise, features_g),
            nn.ReLU(),
            nn.Linear(features_g, channels_img * IMAGE_SIZE * IMAGE_SIZE),
            nn.Tanh(),
        )

    def forward(self, x):
        return self.net(x).reshape(x.shape[0], CHANNELS_IMG, IMAGE_SIZE, IMAGE_SIZE)


def initialize_weights(model, seed):
    # fixed numbers in [-0.8, 0.8], different for every parameter, identical in every library
    with torch.no_grad():
        for k, param in enumerate(model.parameters()):
            values = [0.8 * math.sin(1.3 * i + 0.7 * k + seed) for i in range(param.numel())]
            param.copy_(torch.tensor(values).reshape(param.shape))


# Hyperparameters etc.
device = "cpu"
LEARNING_RATE = 1e-4
BATCH_SIZE = 4
IMAGE_SIZE = 2
CHANNELS_IMG = 1
Z_DIM = 3
NUM_EPOCHS = 1
FEATURES_CRITIC = 6
FEATURES_GEN = 5
CRITIC_ITERATIONS = 3
LAMBDA_GP = 10

real_batch = torch.tensor([[[[0.9, -0.2], [0.4, 0.7]]], [[[-0.5, 0.8], [0.1, -0.9]]],
                           [[[0.3, 0.3], [-0.6, 0.2]]], [[[-0.1, -0.7], [0.8, 0.5]]]])
loader = [(real_batch, torch.zeros(BATCH_SIZE))]
NOISE = torch.tensor([[[[0.2]], [[-1.1]], [[0.6]]], [[[1.4]], [[0.3]], [[-0.8]]],
                      [[[-0.5]], [[0.9]], [[0.1]]], [[[0.7]], [[-0.2]], [[-1.3]]]])
ALPHA = torch.tensor([0.25, 0.6, 0.1, 0.85]).reshape(BATCH_SIZE, 1, 1, 1)

# initialize gen and disc, note: discriminator should be called critic,
# according to WGAN paper (since it no longer outputs between [0, 1])
gen = Generator(Z_DIM, CHANNELS_IMG, FEATURES_GEN).to(device)
critic = Discriminator(CHANNELS_IMG, FEATURES_CRITIC).to(device)
initialize_weights(gen, seed=0.0)
initialize_weights(critic, seed=1.0)

# initializate optimizer
opt_gen = optim.Adam(gen.parameters(), lr=LEARNING_RATE, betas=(0.0, 0.9))
opt_critic = optim.Adam(critic.parameters(), lr=LEARNING_RATE, betas=(0.0, 0.9))

gen.train()
critic.train()

for epoch in range(NUM_EPOCHS):
    # Target labels not needed! <3 unsupervised
    for batch_idx, (real, _) in enumerate(loader):
        real = real.to(device)
        cur_batch_size = real.shape[0]

        # Train Critic: max E[critic(real)] - E[critic(fake)]
        # equivalent to minimizing the negative of that
        for _ in range(CRITIC_ITERATIONS):
            noise = NOISE.to(device)
            fake = gen(noise)
            critic_real = critic(real).reshape(-1)
            critic_fake = critic(fake).reshape(-1)
            gp = gradient_penalty(critic, real, fake, device=device)
            loss_critic = (
                -(torch.mean(critic_real) - torch.mean(critic_fake)) + LAMBDA_GP * gp
            )
            critic.zero_grad()
            loss_critic.backward(retain_graph=True)
            opt_critic.step()
            print(f"critic step: loss {loss_critic:.5g}, gradient penalty {gp:.5g}")

        # Train Generator: max E[critic(gen_fake)] <-> min -E[critic(gen_fake)]
        gen_fake = critic(fake).reshape(-1)
        loss_gen = -torch.mean(gen_fake)
        gen.zero_grad()
        loss_gen.backward()
        opt_gen.step()

        print(
            f"Epoch [{epoch}/{NUM_EPOCHS}] Batch {batch_idx}/{len(loader)} \
              Loss D: {loss_critic:.5g}, loss G: {loss_gen:.5g}"
        )

for name, param in [*critic.named_parameters(), *gen.named_parameters()]:
    print(f"{name}: sum {param.sum().item():.5g}")
